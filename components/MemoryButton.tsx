"use client";
// The header's way into the memory panel; shows how many memories the open session loaded.
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
      className="flex items-center gap-1 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100"
    >
      <BrainIcon />
      {active > 0 && (
        <span data-testid="memory-count" className="text-xs font-medium tabular-nums">
          {active}
        </span>
      )}
    </button>
  );
}

function BrainIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M9.5 2A2.5 2.5 0 0 0 7 4.5v.2A3 3 0 0 0 4.5 9a3 3 0 0 0 .5 5.5A3 3 0 0 0 9 19.5 2.5 2.5 0 0 0 12 21V4.5A2.5 2.5 0 0 0 9.5 2z" />
      <path d="M14.5 2A2.5 2.5 0 0 1 17 4.5v.2A3 3 0 0 1 19.5 9a3 3 0 0 1-.5 5.5 3 3 0 0 1-4 5A2.5 2.5 0 0 1 12 21" />
    </svg>
  );
}
