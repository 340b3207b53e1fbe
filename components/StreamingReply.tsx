"use client";
// The reply while it streams: words appear as deltas arrive, with a caret until it is saved.
import { MessageText } from "@/components/MessageText";

export function StreamingReply({ text }: { text: string }) {
  return (
    <article
      data-testid="streaming-reply"
      data-role="assistant"
      data-status="streaming"
      aria-live="polite"
      aria-busy="true"
      aria-label="Claude is replying"
      className="flex flex-col items-start gap-1"
    >
      <span className="text-xs font-medium text-zinc-700">Claude</span>
      <div className="max-w-[min(100%,46rem)] rounded-2xl border border-zinc-200 bg-white px-4 py-2.5 text-zinc-900 shadow-sm">
        {text ? (
          <MessageText text={text} caret />
        ) : (
          <span className="flex items-center gap-2 text-sm text-zinc-500">
            Thinking
            <span className="inline-block h-4 w-1.5 animate-tk-pulse rounded-sm bg-zinc-400" aria-hidden />
          </span>
        )}
      </div>
    </article>
  );
}
