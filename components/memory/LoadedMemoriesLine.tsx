"use client";
// One line in the chat, under the first message, when memories of earlier sessions joined
// what Claude reads: how many, a way to see them, and a way to take them all back.
import { Brain } from "lucide-react";
import { useMemoryStore } from "@/lib/client/memory-store";

export function LoadedMemoriesLine({ sessionId }: { sessionId: string }) {
  const tracked = useMemoryStore((s) => s.sessionId);
  const loaded = useMemoryStore((s) => s.loaded);
  const busy = useMemoryStore((s) => Object.keys(s.busy).length > 0);
  if (tracked !== sessionId || loaded.length === 0) return null;
  const kept = loaded.filter((l) => !l.dropped).length;
  const store = useMemoryStore.getState();
  // Tall enough to tap on a phone.
  const action =
    "rounded px-1.5 py-3 font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-500 disabled:opacity-50 sm:py-0.5 dark:text-sky-400";
  return (
    <div data-testid="memories-line" data-kept={kept} role="status" className="flex items-center justify-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
      <Brain aria-hidden className="h-3.5 w-3.5" />
      <span>
        {kept > 0 ? `Loaded ${kept} ${kept === 1 ? "memory" : "memories"}` : "Memories"}
        <span className="max-sm:hidden"> from earlier sessions</span>
        {kept > 0 ? "" : " dropped"}
      </span>
      <span aria-hidden>·</span>
      <button type="button" data-testid="memories-line-show" className={action} onClick={() => store.setOpen(true)}>
        show
      </button>
      <span aria-hidden>·</span>
      <button
        type="button"
        data-testid="memories-line-undo"
        disabled={busy}
        className={action}
        onClick={() => void store.setAllDropped(kept > 0)}
      >
        {kept > 0 ? "undo" : "restore"}
      </button>
    </div>
  );
}
