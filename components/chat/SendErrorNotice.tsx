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
        {/* Refused before it was saved (a full disk, a limit): the text is nowhere else on screen,
            so it is shown with the failure, and Retry sends it again. */}
        <p className="font-medium">{error.saved ? "The reply failed" : "Your message was not sent"}</p>
        {!error.saved && error.text && (
          <p data-testid="send-error-text" className="my-1 line-clamp-3 whitespace-pre-wrap break-words border-l-2 border-red-300 dark:border-red-800 pl-2 italic">
            {error.text}
          </p>
        )}
        {!error.saved && error.files && error.files.length > 0 && (
          <p data-testid="send-error-files" className="my-1 truncate text-xs">
            With {error.files.map((f) => f.name).join(", ")} (still attached below)
          </p>
        )}
        <p className="break-words">{error.message}</p>
      </div>
      {(error.text || (error.files && error.files.length > 0)) && (
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
