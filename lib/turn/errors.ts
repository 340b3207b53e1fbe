import "server-only";
import { Anthropic, isPromptTooLong } from "@/lib/llm/client";
import { AppError } from "@/lib/errors";
import { supabaseAuth } from "@/lib/mode";

/**
 * A turn that failed once its message was saved: the disk filled while the reply (or something
 * the turn writes after it) was being stored. The request's own sentence says nothing was saved,
 * which is no longer true; this one says what is kept.
 */
const replyNotSaved = (cause: AppError) =>
  new AppError(
    507,
    "storage_full",
    "The server's storage is full, so the reply could not be saved. Your message is saved; free some disk space on the server (or ask whoever runs it to), then retry.",
    cause.details,
  );

/**
 * What a turn's JSON answer is, by its error's code: the error event carries no status, and by
 * the time it is sent a streamed answer has long been a 200. Claude's failures are the gateway's.
 */
export function turnFailureStatus(code: string): number {
  if (code === "context_overflow") return 413;
  if (code === "storage_full") return 507;
  return 502;
}

/** What a failed turn (a Claude call, or saving what it answered) means for the user, in the shared error shape. */
export function llmError(err: unknown): AppError {
  if (err instanceof AppError) return err.code === "storage_full" ? replyNotSaved(err) : err;
  if (isPromptTooLong(err)) {
    return new AppError(400, "prompt_too_long", "Claude rejected the request as too long for its context window.", {
      upstream: (err as Error).message,
    });
  }
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return new AppError(504, "upstream_timeout", "Claude did not answer in time. Your message is saved; retry to try again.");
  }
  if (err instanceof Anthropic.APIError && err.status !== undefined) {
    const [status, code, message] = upstreamFailure(err.status, upstreamMessage(err));
    // Claude's own advice on when to come back, passed on to whoever retries.
    const retryAfter = err.headers?.get("retry-after");
    return new AppError(
      status,
      code,
      message,
      { upstream_status: err.status, ...(retryAfter ? { retry_after: retryAfter } : {}) },
      retryAfter ? { "Retry-After": retryAfter } : undefined,
    );
  }
  return new AppError(
    502,
    "stream_interrupted",
    "The connection to Claude broke off. Your message and any partial reply are saved; retry to try again.",
    { reason: err instanceof Error ? err.message : String(err) },
  );
}

const SAVED = "Your message is saved";

/**
 * Claude's refusal as sentences a person can act on: what happened, and what to do next. Never
 * the raw answer (`400 {"type":"error",...}`): its message is taken out of it.
 */
function upstreamFailure(status: number, said: string | null): [number, string, string] {
  const because = said ? `: ${sentence(said)}` : ".";
  if (status === 401) {
    const where = supabaseAuth() ? "Ask whoever runs this server to check its Anthropic key." : "Check the key in Account settings (or ANTHROPIC_API_KEY), then retry.";
    return [502, "upstream_auth", `Claude refused the API key. ${SAVED}. ${where}`];
  }
  if (status === 403) return [502, "upstream_rejected", `Claude refused this request for the API key in use${because} ${SAVED}; check the key's permissions, then retry.`];
  if (status === 404) return [502, "upstream_rejected", `Claude does not know this session's model${because} ${SAVED}; pick another model in the session's settings, then retry.`];
  if (status === 413) return [502, "upstream_rejected", `The request was too large for Claude${because} ${SAVED}; remove a large attachment or start a new chat, then retry.`];
  if (status === 429) return [503, "rate_limited", `Claude is rate-limiting requests right now. ${SAVED}; wait a moment, then retry.`];
  if (status === 529) return [503, "overloaded", `Claude is overloaded right now. ${SAVED}; retry in a moment.`];
  if (status >= 500) return [502, "upstream_error", `Claude had an internal error. ${SAVED}; retry to try again.`];
  return [502, "upstream_rejected", `Claude could not accept this request${because} ${SAVED}; edit your message (or remove an attachment) and send it again.`];
}

/** Claude's own words from an API error: the SDK's message is the status and the raw JSON body. */
function upstreamMessage(err: InstanceType<typeof Anthropic.APIError>): string | null {
  const body = err.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const said = body?.error?.message ?? body?.message;
  if (typeof said === "string" && said.trim()) return said.trim();
  // Without a parsed body the message may still be `400 {...}`: read the JSON in it, else drop it.
  const json = err.message.replace(/^\d{3}\s*/, "");
  try {
    const parsed = JSON.parse(json) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === "string" ? parsed.error.message.trim() : null;
  } catch {
    return json.trim() && !json.trim().startsWith("{") && !/^status code/i.test(json.trim()) ? json.trim() : null;
  }
}

/** Ends with one full stop, and is short enough to read. */
function sentence(text: string): string {
  const cut = text.length > 300 ? `${text.slice(0, 297)}…` : text;
  return /[.!?…]$/.test(cut) ? cut : `${cut}.`;
}
