"use client";
// Shown while the list is scrolled away from its end: one press brings the newest message
// (or the reply being written) into view. It counts the messages that arrived meanwhile.
import { ArrowDown } from "lucide-react";

export function JumpToLatest({ newCount, streaming, onJump }: { newCount: number; streaming: boolean; onJump(): void }) {
  const label = newCount > 0 ? `${newCount} new message${newCount === 1 ? "" : "s"}` : "Jump to latest";
  return (
    <div className="pointer-events-none absolute inset-x-0 bottom-3 flex justify-center">
      <button
        type="button"
        data-testid="jump-to-latest"
        data-new-count={newCount}
        onClick={onJump}
        title="Scroll to the newest message"
        className={`pointer-events-auto inline-flex items-center gap-1.5 rounded-full border px-3.5 py-1.5 text-sm font-medium shadow-md transition-colors focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 ${
          newCount > 0
            ? "border-sky-700 bg-sky-700 text-white hover:bg-sky-800 dark:border-sky-500 dark:bg-sky-600 dark:hover:bg-sky-500"
            : "border-zinc-200 bg-white text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800"
        }`}
      >
        <ArrowDown aria-hidden className="h-4 w-4" />
        {label}
        {streaming && (
          <span className="ml-0.5 inline-flex items-center gap-1 text-xs font-normal opacity-80">
            <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-current animate-tk-pulse" />
            replying
          </span>
        )}
      </button>
    </div>
  );
}
