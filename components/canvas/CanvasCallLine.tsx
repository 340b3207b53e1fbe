"use client";
// A canvas tool call in the chat: one quiet line with an icon ("Added card “Today's weather”"),
// or Claude's error in a muted red, instead of the call's JSON and its result's text.
import { Bell, Check, Eraser, History, LayoutGrid, Palette, Pencil, Plus, TriangleAlert, X, type LucideIcon } from "lucide-react";
import type { ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { canvasLine, type CanvasLineKind } from "@/lib/client/canvas-lines";

const ICONS: Record<CanvasLineKind, LucideIcon> = {
  add: Plus,
  update: Pencil,
  remove: X,
  clear: Eraser,
  layout: LayoutGrid,
  choose: Check,
  reset: History,
  notification: Bell,
  theme: Palette,
  error: TriangleAlert,
};

export function CanvasCallLine({ use, result }: { use: ToolUseBlock; result: ToolResultBlock }) {
  const line = canvasLine(use, result);
  const Icon = ICONS[line.kind];
  const failed = line.kind === "error";
  return (
    <p
      data-testid="canvas-call"
      data-kind={line.kind}
      className={`flex max-w-[min(100%,46rem)] items-start gap-2 px-1 text-[13px] leading-5 ${
        failed ? "text-red-700/80 dark:text-red-400/80" : "text-zinc-500 dark:text-zinc-400"
      }`}
    >
      <span
        aria-hidden
        className={`mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center rounded ${
          failed ? "bg-red-50 dark:bg-red-950/50" : "bg-sky-50 text-sky-700 dark:bg-sky-950/50 dark:text-sky-400"
        }`}
      >
        <Icon className="h-3 w-3" />
      </span>
      <span className="min-w-0 break-words">{line.text}</span>
    </p>
  );
}
