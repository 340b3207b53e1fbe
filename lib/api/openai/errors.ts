// Errors on /api/openai in OpenAI's shape and statuses, so an OpenAI SDK raises its usual typed
// error (BadRequestError, AuthenticationError, RateLimitError, …) and retries what it would retry
// against OpenAI.
import "server-only";
import { OPENAI_ERROR_STATUSES, openaiErrorType, type OpenAIErrorJson } from "@/lib/contract/openai";
import type { AppError } from "@/lib/errors";

// Claude's failures behind a turn (lib/turn/errors.ts) are 502/503/504 in our own API; an OpenAI
// client expects the status OpenAI itself would have answered.
const BY_CODE: Record<string, number> = {
  rate_limited: 429,
  overloaded: 503,
  prompt_too_long: 400,
  context_overflow: 400,
  upstream_rejected: 400,
  message_too_large: 413,
  payload_too_large: 413,
  too_many_messages: 413,
  shutting_down: 503,
  // Not a 503: a full disk stays full until someone frees space (lib/api/anthropic/errors.ts says more).
  storage_full: 507,
};

// OpenAI's own codes where it has one for the case: clients switch on them (LangChain and
// LibreChat trim a conversation on context_length_exceeded).
const OPENAI_CODES: Record<string, string> = {
  prompt_too_long: "context_length_exceeded",
  context_overflow: "context_length_exceeded",
  rate_limited: "rate_limit_exceeded",
};

/** The request field an error names: ours say it in `details.param`, zod's in their first issue's path. */
function paramOf(details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const d = details as { param?: unknown; issues?: { path?: unknown }[] };
  if (typeof d.param === "string") return d.param;
  const path = d.issues?.[0]?.path;
  return typeof path === "string" && path !== "" ? path : null;
}

/** The status and body an OpenAI client expects for one of our errors. */
export function openaiError(err: AppError): { status: number; body: OpenAIErrorJson } {
  const known = err.status in OPENAI_ERROR_STATUSES;
  const status = BY_CODE[err.code] ?? (!known && (err.status >= 500 || err.status === 499) ? 500 : err.status);
  return {
    status,
    body: { error: { message: err.message, type: openaiErrorType(status), param: paramOf(err.details), code: OPENAI_CODES[err.code] ?? err.code } },
  };
}

/** A streamed failure: after the 200 is sent, the SDK raises an error frame's `error`. */
export function openaiErrorFrame(err: AppError): string {
  return `data: ${JSON.stringify(openaiError(err).body)}\n\n`;
}
