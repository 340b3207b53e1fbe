"use client";
// What was just typed (and the files sent with it), shown at once while the server saves it.
import { Paperclip } from "lucide-react";
import type { OutgoingFile } from "@/lib/client/attachments";
import { PlainText } from "@/components/chat/PlainText";

export function PendingUserMessage({ text, files = [] }: { text: string; files?: readonly OutgoingFile[] }) {
  return (
    <article data-testid="pending-message" data-role="user" aria-label="You (sending)" className="flex flex-col items-end gap-1 opacity-70">
      <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">You</span>
      {files.length > 0 && (
        <ul className="flex max-w-[min(100%,46rem)] flex-wrap justify-end gap-1.5" aria-label="Files">
          {files.map((f) => (
            <li key={f.id} className="inline-flex max-w-56 items-center gap-1 rounded-lg border border-zinc-200 bg-white px-2 py-1 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
              <Paperclip aria-hidden className="h-3 w-3 shrink-0" />
              <span className="truncate" title={f.name}>
                {f.name}
              </span>
            </li>
          ))}
        </ul>
      )}
      {text && (
        <div className="max-w-[min(100%,46rem)] rounded-2xl bg-zinc-800 px-4 py-2.5 text-zinc-50 shadow-sm">
          <PlainText text={text} />
        </div>
      )}
    </article>
  );
}
