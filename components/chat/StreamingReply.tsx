"use client";
// The reply while it streams: words appear as deltas arrive, with a caret until it is saved.
import { useDeferredValue } from "react";
import { MarkdownText } from "@/components/markdown/MarkdownText";

export function StreamingReply({ text }: { text: string }) {
  // Parsing a long reply on every delta can fall behind a fast stream; a deferred value
  // lets React skip to the newest text instead of rendering each one in turn.
  const shown = useDeferredValue(text);
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
      <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Claude</span>
      <div className="max-w-[min(100%,46rem)] rounded-2xl border border-zinc-200 bg-white px-4 py-2.5 text-zinc-900 shadow-sm dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100">
        {shown ? (
          <MarkdownText text={shown} streaming />
        ) : (
          <span className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
            Thinking
            <span className="tk-caret" aria-hidden />
          </span>
        )}
      </div>
    </article>
  );
}
