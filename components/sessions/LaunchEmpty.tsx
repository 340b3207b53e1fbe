"use client";
// The new conversation's empty state: what to type, and the few most recent sessions to pick
// up where they left off. It takes the place of a dialog at launch, so a first visit (nothing to
// resume) and every later one open straight onto a conversation ready to start.
import { History, MessagesSquare } from "lucide-react";
import type { SessionSummaryJson } from "@/lib/contract";
import { relativeTime } from "@/lib/client/format";
import { previewText } from "@/lib/client/message-text";
import { useLaunchStore } from "@/lib/client/launch-store";

export function LaunchEmpty() {
  const recent = useLaunchStore((s) => s.recent);
  return (
    <div data-testid="launch-empty" className="mx-auto mt-10 flex w-full max-w-lg flex-col items-center text-center text-sm text-zinc-600 dark:text-zinc-400 sm:mt-16">
      <span className="mb-4 flex h-12 w-12 items-center justify-center rounded-2xl bg-white text-zinc-700 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-800">
        <MessagesSquare aria-hidden className="h-6 w-6" />
      </span>
      <h2 className="text-base font-medium text-zinc-800 dark:text-zinc-200">Start a new conversation</h2>
      <p className="mt-2 leading-relaxed">
        Type below. The bar in the header shows how full Claude&apos;s context window is; long conversations are condensed, never lost.
      </p>
      {recent && recent.length > 0 && (
        <section aria-labelledby="recent-title" className="mt-8 w-full text-left">
          <div className="mb-2 flex items-baseline justify-between gap-2">
            <h3 id="recent-title" className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
              Pick up where you left off
            </h3>
            <button
              type="button"
              data-testid="launch-all-sessions"
              onClick={() => useLaunchStore.getState().openPicker()}
              className="rounded text-xs font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-sky-400"
            >
              All sessions…
            </button>
          </div>
          <ul className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {recent.map((r) => (
              <RecentRow key={r.id} row={r} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function RecentRow({ row }: { row: SessionSummaryJson }) {
  const when = row.last_message_at ?? row.updated_at;
  const open = (browse: boolean) => void useLaunchStore.getState().openSession(row.id, { resume: true, browse });
  return (
    <li data-testid="launch-recent" data-session-id={row.id} className="flex items-center gap-3 px-3 py-2.5">
      <button
        type="button"
        data-testid="launch-resume"
        onClick={() => open(false)}
        className="min-w-0 flex-1 rounded text-left focus-visible:outline-2 focus-visible:outline-sky-500"
      >
        <span className="block truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">{row.title || "Untitled session"}</span>
        <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
          {relativeTime(when)}
          {row.last_message_preview ? ` · ${previewText(row.last_message_preview)}` : ""}
        </span>
      </button>
      {row.checkpoint_count > 0 && (
        <button
          type="button"
          data-testid="launch-checkpoints"
          aria-label={`Checkpoints of ${row.title || "this session"}`}
          title="Browse its checkpoints"
          onClick={() => open(true)}
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-sky-500 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
        >
          <History aria-hidden className="h-4 w-4" />
        </button>
      )}
    </li>
  );
}
