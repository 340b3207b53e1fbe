"use client";
// What was just typed, shown at once while the server saves it.
import { PlainText } from "@/components/chat/PlainText";

export function PendingUserMessage({ text }: { text: string }) {
  return (
    <article data-testid="pending-message" data-role="user" aria-label="You (sending)" className="flex flex-col items-end gap-1 opacity-70">
      <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">You</span>
      <div className="max-w-[min(100%,46rem)] rounded-2xl bg-zinc-800 px-4 py-2.5 text-zinc-50 shadow-sm">
        <PlainText text={text} />
      </div>
    </article>
  );
}
