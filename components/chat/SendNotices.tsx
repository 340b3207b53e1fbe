"use client";
// Things the server did on the way to a reply (window slid, retrying after an overload).
import type { Notice } from "@/lib/client/conversation-store";

export function SendNotices({ notices }: { notices: Notice[] }) {
  if (notices.length === 0) return null;
  return (
    <ul className="space-y-1" aria-live="polite">
      {notices.map((n, i) => (
        <li
          key={i}
          data-testid="send-notice"
          data-kind={n.kind}
          className="rounded-md bg-zinc-100 dark:bg-zinc-800 px-3 py-1.5 text-xs text-zinc-600 dark:text-zinc-400"
        >
          {n.message}
        </li>
      ))}
    </ul>
  );
}
