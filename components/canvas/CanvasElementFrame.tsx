"use client";
// The box every canvas element sits in: its heading (the element's title, or what kind of
// element it is), a remove button that is always there (touch screens have no hover), the
// content, and an optional footer line.
import type { ReactNode } from "react";
import { X } from "lucide-react";
import type { CanvasElement } from "@/lib/contract/canvas-elements";
import { elementLabel } from "@/lib/canvas/describe";
import { useCanvasStore } from "@/lib/client/canvas-store";

const TYPE_LABELS: Record<CanvasElement["type"], string> = {
  card: "Card",
  text: "Text",
  chart: "Chart",
  table: "Table",
  media: "Media",
  confirmation: "Question",
};

export function CanvasElementFrame({
  element,
  title,
  subtitle,
  footer,
  wide = false,
  children,
}: {
  element: CanvasElement;
  /** The element's own title; without one the heading names the kind of element. */
  title?: string;
  subtitle?: ReactNode;
  footer?: ReactNode;
  /** Takes the whole row in the grid layout (charts, tables, media need the width). */
  wide?: boolean;
  children?: ReactNode;
}) {
  const busy = useCanvasStore((s) => Boolean(s.busy[element.id]));
  const label = elementLabel(element);
  return (
    <section
      data-testid="canvas-element"
      data-element-id={element.id}
      data-type={element.type}
      aria-label={`${TYPE_LABELS[element.type]}: ${label}`}
      aria-busy={busy || undefined}
      className={`min-w-0 rounded-xl border border-zinc-200 bg-white shadow-sm transition-opacity dark:border-zinc-800 dark:bg-zinc-900 ${
        wide ? "@xl:col-span-2" : ""
      } ${busy ? "opacity-60" : ""}`}
    >
      <header className="flex items-start gap-2 py-2.5 pl-3.5 pr-2">
        <div className="min-w-0 flex-1 pt-0.5">
          {title ? (
            <h3 className="break-words text-sm font-semibold leading-snug text-zinc-900 dark:text-zinc-100">{title}</h3>
          ) : (
            <h3 className="text-[11px] font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{TYPE_LABELS[element.type]}</h3>
          )}
          {subtitle && <p className="mt-0.5 break-words text-xs text-zinc-500 dark:text-zinc-400">{subtitle}</p>}
        </div>
        <button
          type="button"
          data-testid="canvas-remove"
          aria-label={`Remove “${label}” from the canvas`}
          title="Remove from the canvas"
          disabled={busy}
          onClick={() => void useCanvasStore.getState().remove(element.id)}
          className="shrink-0 rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-500 disabled:opacity-50 dark:text-zinc-500 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      </header>
      {children && <div className="min-w-0 px-3.5 pb-3.5">{children}</div>}
      {footer && (
        <footer className="break-words border-t border-zinc-100 px-3.5 py-2 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">{footer}</footer>
      )}
    </section>
  );
}
