"use client";
// What the panel and the phone sheet both show: a heading with the count and the clear and
// hide buttons, then the canvas in its layout, or what stands in for it (loading, an error
// with a retry, or an empty canvas that says what the canvas is for).
import { useEffect, useRef } from "react";
import { LayoutGrid, PanelRightClose, RotateCw, X } from "lucide-react";
import type { CanvasElement } from "@/lib/contract/canvas-elements";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { CanvasElementView } from "@/components/canvas/CanvasElementView";
import { ClearCanvasButton } from "@/components/canvas/ClearCanvasButton";

export function CanvasBody({ titleId, sheet, onHide }: { titleId: string; sheet: boolean; onHide(): void }) {
  const canvas = useCanvasStore((s) => s.canvas);
  const sessionId = useCanvasStore((s) => s.sessionId);
  const loading = useCanvasStore((s) => s.loading);
  const loadError = useCanvasStore((s) => s.loadError);
  const actionError = useCanvasStore((s) => s.actionError);
  const elements = canvas?.elements ?? [];
  const list = useRef<HTMLDivElement>(null);
  useScrollToNew(elements, list);

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex min-h-[2.75rem] items-center gap-2 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <h2 id={titleId} className="flex min-w-0 flex-1 items-center gap-2 text-sm font-semibold text-zinc-900 dark:text-zinc-100">
          Canvas
          {elements.length > 0 && (
            <span className="rounded-full bg-zinc-200/70 px-1.5 text-[11px] font-medium tabular-nums text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
              {elements.length}
            </span>
          )}
        </h2>
        {elements.length > 0 && <ClearCanvasButton count={elements.length} />}
        <button
          type="button"
          data-testid="canvas-hide"
          onClick={onHide}
          aria-label={sheet ? "Close the canvas" : "Hide the canvas"}
          title={sheet ? "Close" : "Hide the canvas"}
          className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
        >
          {sheet ? <X aria-hidden className="h-4 w-4" /> : <PanelRightClose aria-hidden className="h-4 w-4" />}
        </button>
      </div>
      {actionError && (
        <div role="alert" className="mx-3 mt-3 flex items-start gap-2 rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-300">
          <span className="min-w-0 flex-1">{actionError}</span>
          <button type="button" aria-label="Dismiss" onClick={() => useCanvasStore.getState().dismissActionError()} className="shrink-0 rounded p-0.5 hover:bg-red-100 dark:hover:bg-red-900/40">
            <X aria-hidden className="h-3.5 w-3.5" />
          </button>
        </div>
      )}
      <div ref={list} data-testid="canvas-elements" data-layout={canvas?.layout} className="@container min-h-0 flex-1 overflow-y-auto overscroll-contain p-3">
        {canvas === null && sessionId !== null && loadError ? (
          <LoadFailed message={loadError} />
        ) : canvas === null && sessionId !== null && loading ? (
          <Loading />
        ) : elements.length === 0 ? (
          <EmptyCanvas />
        ) : (
          <div className={canvas?.layout === "list" ? "flex flex-col gap-3" : "grid grid-cols-1 items-start gap-3 @xl:grid-cols-2"}>
            {elements.map((e) => (
              <CanvasElementView key={e.id} element={e} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** A new element is scrolled into view: it lands below the others, maybe out of sight. */
function useScrollToNew(elements: readonly CanvasElement[], list: React.RefObject<HTMLDivElement | null>): void {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    const ids = new Set(elements.map((e) => e.id));
    const before = seen.current;
    seen.current = ids;
    // The first render (a load, a session switch) is a whole canvas, not an arrival.
    if (before === null || before.size === 0) return;
    const added = elements.find((e) => !before.has(e.id));
    if (!added) return;
    const node = list.current?.querySelector<HTMLElement>(`[data-element-id="${CSS.escape(added.id)}"]`);
    node?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [elements, list]);
}

function Loading() {
  return (
    <div role="status" aria-label="Loading the canvas" className="space-y-3">
      {[0, 1].map((i) => (
        <div key={i} className="h-28 animate-pulse rounded-xl bg-zinc-200/60 dark:bg-zinc-800/60" />
      ))}
    </div>
  );
}

function LoadFailed({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-lg bg-red-50 px-3 py-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300">
      <p className="font-medium">The canvas could not be loaded.</p>
      <p className="mt-1 text-xs">{message}</p>
      <button
        type="button"
        onClick={() => void useCanvasStore.getState().reload()}
        className="mt-2 inline-flex items-center gap-1 rounded-md border border-red-300 px-2 py-1 text-xs font-medium hover:bg-red-100 dark:border-red-800 dark:hover:bg-red-900/40"
      >
        <RotateCw aria-hidden className="h-3 w-3" />
        Try again
      </button>
    </div>
  );
}

function EmptyCanvas() {
  return (
    <div data-testid="canvas-empty" className="mx-auto mt-10 flex max-w-xs flex-col items-center px-2 text-center text-sm text-zinc-500 dark:text-zinc-400">
      <span className="mb-3 flex h-11 w-11 items-center justify-center rounded-2xl bg-white text-zinc-600 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-800">
        <LayoutGrid aria-hidden className="h-5 w-5" />
      </span>
      <p className="font-medium text-zinc-800 dark:text-zinc-200">Nothing on the canvas yet</p>
      <p className="mt-2 leading-relaxed">
        Claude can put cards, notes, charts, tables, images and questions here: things to keep in view while you talk.
        They stay when older turns leave Claude&apos;s view, and Claude always knows what is on it.
      </p>
      <p className="mt-2 leading-relaxed">Ask for a chart or a table, or remove anything with its ×.</p>
    </div>
  );
}
