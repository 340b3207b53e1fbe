import "server-only";
import { Anthropic, isPromptTooLong } from "@/lib/llm/client";
import { AppError } from "@/lib/errors";

/** What a failed Claude call means for the user, in the shared error shape. */
export function llmError(err: unknown): AppError {
  if (err instanceof AppError) return err;
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
