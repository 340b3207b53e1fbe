"use client";
// A quiet row that opens to show more: thinking, a tool call's details, a system note. A real
// button with aria-expanded (never a bare <details>), so every renderer opens the same way.
import { useId, useState, type ReactNode } from "react";
import { ChevronRight } from "lucide-react";

export const ROW =
  "-mx-1.5 inline-flex max-w-[calc(100%+0.75rem)] items-center gap-1.5 rounded-md px-1.5 py-1 text-left text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100";

/** The panel of a row: muted, set off by a rule on its left. */
export const PANEL = "mt-1 border-l-2 border-zinc-200 pl-3 text-sm dark:border-zinc-700";

export function Disclosure({
  icon,
  label,
  meta,
  children,
  testId,
  defaultOpen = false,
  labelClassName = "",
}: {
  icon: ReactNode;
  label: ReactNode;
  /** A short note after the label ("5 results", "exit 1"). */
  meta?: ReactNode;
  children: ReactNode;
  testId?: string;
  defaultOpen?: boolean;
  labelClassName?: string;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const panel = useId();
  return (
    <div data-testid={testId} data-open={open} className="min-w-0">
      <button type="button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen((v) => !v)} className={ROW}>
        <span aria-hidden className="flex shrink-0 items-center">
          {icon}
        </span>
        <span className={`min-w-0 truncate ${labelClassName}`}>{label}</span>
        {meta && <span className="shrink-0 text-zinc-500 dark:text-zinc-400">{meta}</span>}
        <ChevronRight aria-hidden className={`h-3.5 w-3.5 shrink-0 transition-transform ${open ? "rotate-90" : ""}`} />
      </button>
      {open && (
        <div id={panel} className={PANEL}>
          {children}
        </div>
      )}
    </div>
  );
}

/** A row with nothing to open: the same look, no button. */
export function StaticRow({ icon, label, title, testId }: { icon: ReactNode; label: ReactNode; title?: string; testId?: string }) {
  return (
    <div data-testid={testId} title={title} className="inline-flex max-w-full items-center gap-1.5 py-1 text-xs text-zinc-600 dark:text-zinc-400">
      <span aria-hidden className="flex shrink-0 items-center">
        {icon}
      </span>
      <span className="min-w-0 truncate">{label}</span>
    </div>
  );
}

/** Preformatted text (JSON, output) that scrolls in both directions and can be reached by keyboard. */
export function Pre({ text, label, tone = "plain", testId }: { text: string; label: string; tone?: "plain" | "error"; testId?: string }) {
  const colours =
    tone === "error"
      ? "bg-red-50 text-red-900 ring-red-200 dark:bg-red-950/40 dark:text-red-200 dark:ring-red-900"
      : "bg-zinc-50 text-zinc-800 ring-zinc-200 dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800";
  return (
    <pre
      data-testid={testId}
      tabIndex={0}
      aria-label={label}
      className={`max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md px-3 py-2 font-mono text-xs leading-relaxed ring-1 ring-inset ${colours}`}
    >
      {text}
    </pre>
  );
}
