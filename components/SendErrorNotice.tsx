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
      className="flex flex-wrap items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
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
          className="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-100 disabled:opacity-50"
        >
          Retry
        </button>
      )}
    </div>
  );
}
