"use client";
// A question Claude asked on the canvas. Pressing an option records it on the canvas (so
// Claude's view of the canvas says what was chosen) and sends it as the user's next message;
// once chosen, the options stay visible with the choice marked, and none can be pressed.
import { Check } from "lucide-react";
import type { ConfirmationElement } from "@/lib/contract/canvas-elements";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useConversationStore } from "@/lib/client/conversation-store";

async function answer(id: string, choice: string): Promise<void> {
  if (!(await useCanvasStore.getState().choose(id, choice))) return;
  await useConversationStore.getState().send(choice);
}

export function CanvasConfirmation({ confirmation: c }: { confirmation: ConfirmationElement }) {
  const busy = useCanvasStore((s) => Boolean(s.busy[c.id]));
  // send() ignores a message while a reply streams; a press then would record a choice nobody hears.
  const replying = useConversationStore((s) => s.phase !== "idle" || s.compacting);
  const chosen = c.chosen;
  return (
    <div className="space-y-3">
      {c.message && <p className="whitespace-pre-wrap break-words text-sm text-zinc-700 dark:text-zinc-300">{c.message}</p>}
      <div role="group" aria-label={c.title} className="flex flex-wrap gap-2">
        {c.options.map((option, i) => {
          const picked = chosen === option;
          return (
            <button
              key={option}
              type="button"
              data-testid="canvas-option"
              aria-pressed={chosen !== undefined ? picked : undefined}
              disabled={chosen !== undefined || busy || replying}
              title={chosen === undefined && replying ? "Wait for the reply to finish" : undefined}
              onClick={() => void answer(c.id, option)}
              className={`inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-500 ${
                picked
                  ? "bg-emerald-600 text-white dark:bg-emerald-500 dark:text-zinc-950"
                  : chosen !== undefined
                    ? "border border-zinc-200 text-zinc-400 line-through decoration-zinc-300 dark:border-zinc-800 dark:text-zinc-500 dark:decoration-zinc-600"
                    : i === 0
                      ? "bg-zinc-900 text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
                      : "border border-zinc-300 text-zinc-800 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
              }`}
            >
              {picked && <Check aria-hidden className="h-3.5 w-3.5" />}
              {option}
            </button>
          );
        })}
      </div>
      {chosen !== undefined && (
        <p data-testid="canvas-chosen" className="text-xs text-zinc-500 dark:text-zinc-400">
          You chose “{chosen}”.
        </p>
      )}
    </div>
  );
}
