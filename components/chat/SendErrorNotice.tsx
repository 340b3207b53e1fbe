"use client";
// A failed send, in the server's own words, with a way to try again.
import type { SendFailure } from "@/lib/client/conversation-store";

export function SendErrorNotice({
  error,
  retryDisabled,
  onRetry,
}: {
  error: SendFailure;
  retryDisabled: boolean;
  onRetry(): void;
}) {
  return (
    <div
      role="alert"
      data-testid="send-error"
      data-code={error.code}
      className="flex flex-wrap items-start gap-3 rounded-lg border border-red-200 dark:border-red-900 bg-red-50 dark:bg-red-950/40 px-4 py-3 text-sm text-red-900 dark:text-red-200"
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium">The reply failed</p>
        <p className="break-words">{error.message}</p>
      </div>
      {error.text && (
        <button
          type="button"
          onClick={onRetry}
          disabled={retryDisabled}
          className="rounded-md border border-red-300 dark:border-red-800 bg-white dark:bg-zinc-900 px-3 py-1 text-sm font-medium text-red-800 dark:text-red-300 hover:bg-red-100 dark:hover:bg-red-900/40 disabled:opacity-50"
        >
          Retry
        </button>
      )}
    </div>
  );
}
