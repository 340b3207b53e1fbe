// Errors on /api/anthropic in the Messages API's shape and statuses, so an Anthropic SDK raises
// its usual typed error and retries exactly what it would retry against Anthropic.
import "server-only";
import { anthropicErrorType, type AnthropicErrorJson } from "@/lib/contract/anthropic";
import { AppError } from "@/lib/errors";

// Claude's failures behind a turn (lib/turn/errors.ts) are 502/503/504 in our own API; a
// Messages API client expects the status Anthropic itself would have answered.
const BY_CODE: Record<string, number> = {
  rate_limited: 429,
  overloaded: 529,
  prompt_too_long: 400,
  context_overflow: 400,
  upstream_rejected: 400,
  message_too_large: 413,
  payload_too_large: 413,
  too_many_messages: 413,
  // A restarting instance: Anthropic's SDKs retry an overloaded answer after Retry-After.
  shutting_down: 529,
  // Kept as 507 rather than 529: overloaded invites retries for as long as the client will wait,
  // and a full disk stays full until someone frees space. The SDK raises it (InternalServerError)
  // with our sentence after its usual couple of retries.
  storage_full: 507,
};

/** The status and body an Anthropic client expects for one of our errors. */
export function anthropicError(err: AppError): { status: number; body: AnthropicErrorJson } {
  const status = BY_CODE[err.code] ?? (err.status >= 500 || err.status === 499 ? 500 : err.status);
  return { status, body: { type: "error", error: { type: anthropicErrorType(status), message: err.message } } };
}

/** A streamed error frame: after the 200 is sent, a failure is an `error` event. */
export function anthropicErrorFrame(err: AppError): string {
  return `event: error\ndata: ${JSON.stringify(anthropicError(err).body)}\n\n`;
}
