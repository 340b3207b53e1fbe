"use client";
// The header's way into the memory panel; shows how many memories the open session loaded.
import { Brain } from "lucide-react";
import { useMemoryStore } from "@/lib/client/memory-store";

export function MemoryButton() {
  const open = useMemoryStore((s) => s.open);
  const active = useMemoryStore((s) => s.loaded.filter((l) => !l.dropped).length);
  return (
    <button
      type="button"
      data-testid="open-memory"
      aria-pressed={open}
      onClick={() => useMemoryStore.getState().toggle()}
      aria-label="Memory"
      title="Memory across sessions"
      className="flex items-center gap-1 rounded-md p-1.5 text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800"
    >
      <Brain aria-hidden className="h-[18px] w-[18px]" />
      {active > 0 && (
        <span data-testid="memory-count" className="text-xs font-medium tabular-nums">
          {active}
        </span>
      )}
    </button>
  );
}

