"use client";
// The small controls every memory card shares: pin, delete (with a confirmation), the pinned
// badge and the line of small print under a memory.
import { useState } from "react";
import type { MemoryJson } from "@/lib/contract";
import { useMemoryStore } from "@/lib/client/memory-store";

export function PinButton({ memory, busy }: { memory: MemoryJson; busy: boolean }) {
  const togglePinned = useMemoryStore((s) => s.togglePinned);
  return (
    <button
      type="button"
      data-testid="memory-pin"
      aria-pressed={memory.pinned}
      disabled={busy}
      onClick={() => void togglePinned(memory)}
      title={memory.pinned ? "Let it expire and rank normally again" : "Pinned memories never expire and rank higher"}
      className="rounded border border-zinc-300 dark:border-zinc-700 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:text-zinc-300 hover:bg-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-50"
    >
      {memory.pinned ? "Unpin" : "Pin"}
    </button>
  );
}

export function Meta({ children }: { children: React.ReactNode }) {
  return <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500 dark:text-zinc-400">{children}</div>;
}

export function PinnedBadge() {
  return (
    <span data-testid="memory-pinned" className="rounded bg-amber-100 dark:bg-amber-900/40 px-1.5 py-0.5 font-medium text-amber-800 dark:text-amber-300">
      Pinned
    </span>
  );
}

/** Delete, then a confirmation: a deleted memory is gone for good. */
export function DeleteControl({ memoryId, busy }: { memoryId: string; busy: boolean }) {
  const remove = useMemoryStore((s) => s.remove);
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        data-testid="memory-delete"
        disabled={busy}
        onClick={() => setConfirming(true)}
        className="rounded border border-red-200 dark:border-red-900 px-2 py-0.5 text-xs font-medium text-red-700 dark:text-red-400 hover:bg-red-50 dark:hover:bg-red-950/40 disabled:opacity-50"
      >
        Delete
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        data-testid="memory-delete-confirm"
        disabled={busy}
        autoFocus
        onClick={() => void remove(memoryId)}
        className="rounded bg-red-600 px-2 py-0.5 text-xs font-medium text-white hover:bg-red-700 disabled:opacity-50"
      >
        Delete for good
      </button>
      <button
        type="button"
        onClick={() => setConfirming(false)}
        className="rounded px-2 py-0.5 text-xs text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        Keep
      </button>
    </>
  );
}
