"use client";
// "Clear canvas", asked twice: everything Claude put there goes at once, and cannot come back
// except from a checkpoint.
import { useCallback, useState } from "react";
import { Eraser } from "lucide-react";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useEscapeKey } from "@/components/ui/useEscapeKey";

export function ClearCanvasButton({ count }: { count: number }) {
  const [asking, setAsking] = useState(false);
  const clearing = useCanvasStore((s) => s.clearing);
  if (!asking) {
    return (
      <button
        type="button"
        data-testid="canvas-clear"
        onClick={() => setAsking(true)}
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        <Eraser aria-hidden className="h-3.5 w-3.5" />
        Clear
      </button>
    );
  }
  return <ClearConfirm count={count} clearing={clearing} onDone={() => setAsking(false)} />;
}

function ClearConfirm({ count, clearing, onDone }: { count: number; clearing: boolean; onDone(): void }) {
  const cancel = useCallback(() => onDone(), [onDone]);
  useEscapeKey(cancel);
  return (
    <div role="group" aria-label="Clear the canvas?" className="flex items-center gap-1.5 text-xs">
      <span className="text-zinc-600 dark:text-zinc-300">
        Remove all {count}?
      </span>
      <button
        type="button"
        data-testid="canvas-clear-confirm"
        disabled={clearing}
        // Focus lands here so Enter confirms and Escape cancels without reaching for the mouse.
        autoFocus
        onClick={async () => {
          await useCanvasStore.getState().clear();
          onDone();
        }}
        className="rounded-md bg-red-600 px-2 py-1 font-medium text-white hover:bg-red-700 disabled:opacity-60 dark:bg-red-500 dark:text-zinc-950 dark:hover:bg-red-400"
      >
        {clearing ? "Clearing…" : "Clear"}
      </button>
      <button
        type="button"
        onClick={cancel}
        className="rounded-md px-2 py-1 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        Cancel
      </button>
    </div>
  );
}
