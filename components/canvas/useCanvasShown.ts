"use client";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { panelShown, useCanvasPanelStore } from "@/lib/client/canvas-panel-store";
import { useWideScreen } from "@/components/canvas/useWideScreen";

/** Whether the canvas is on screen: the panel beside the chat when wide, the sheet when narrow. */
export function useCanvasShown(): { wide: boolean; shown: boolean } {
  const wide = useWideScreen();
  const count = useCanvasStore((s) => s.canvas?.elements.length ?? 0);
  const preference = useCanvasPanelStore((s) => s.preference);
  const sheetOpen = useCanvasPanelStore((s) => s.sheetOpen);
  const hadContent = useCanvasPanelStore((s) => s.hadContent);
  return { wide, shown: wide ? panelShown(preference, count > 0 || hadContent) : sheetOpen };
}
