"use client";
// The header's way to the canvas: collapses or opens the panel beside the chat, or opens the
// sheet on a phone. The badge counts what is on the canvas, so a collapsed one is not forgotten.
import { PanelRight } from "lucide-react";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useCanvasPanelStore } from "@/lib/client/canvas-panel-store";
import { useCanvasShown } from "@/components/canvas/useCanvasShown";

export function CanvasButton() {
  const count = useCanvasStore((s) => s.canvas?.elements.length ?? 0);
  const { shown } = useCanvasShown();
  return (
    <button
      type="button"
      data-testid="open-canvas"
      aria-pressed={shown}
      aria-label={`Canvas${count > 0 ? `, ${count} element${count === 1 ? "" : "s"}` : ""}`}
      title={shown ? "Hide the canvas" : "Show the canvas"}
      onClick={() => useCanvasPanelStore.getState().toggle(shown)}
      className={`relative flex items-center gap-1 rounded-md p-1.5 ${
        shown
          ? "bg-sky-50 text-sky-800 dark:bg-sky-950/50 dark:text-sky-300"
          : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
      }`}
    >
      <PanelRight aria-hidden className="h-[18px] w-[18px]" />
      {count > 0 && (
        <span
          data-testid="canvas-count"
          aria-hidden
          className="min-w-[1.125rem] rounded-full bg-sky-600 px-1 text-center text-[10px] font-semibold leading-[1.125rem] text-white tabular-nums dark:bg-sky-500 dark:text-zinc-950"
        >
          {count > 99 ? "99+" : count}
        </span>
      )}
    </button>
  );
}
