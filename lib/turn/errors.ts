import "server-only";
import { Anthropic, isPromptTooLong } from "@/lib/llm/client";
import { AppError } from "@/lib/errors";

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
    const byStatus: Record<number, [number, string, string]> = {
      401: [502, "upstream_auth", "Claude refused the API key. Check ANTHROPIC_API_KEY."],
      429: [503, "rate_limited", "Claude is rate-limiting requests right now."],
      529: [503, "overloaded", "Claude is overloaded right now."],
    };
    const [status, code, message] = byStatus[err.status] ??
      (err.status >= 500
        ? [502, "upstream_error", "Claude had an internal error."]
        : [502, "upstream_rejected", `Claude rejected the request: ${err.message}`]);
    // Claude's own advice on when to come back, passed on to whoever retries.
    const retryAfter = err.headers?.get("retry-after");
    return new AppError(
      status,
      code,
      `${message} Your message is saved; retry to try again.`,
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
