// What every dashboard chart shares: axis and grid styling that follows the text colour (so
// light and dark themes need no second palette), and a tooltip drawn with the page's classes.
import type { ReactNode } from "react";

/** Ticks and grid in currentColor: set the colour on the chart's wrapper. */
export const AXIS = {
  tick: { fill: "currentColor", fontSize: 11 },
  stroke: "currentColor",
  strokeOpacity: 0.25,
  tickLine: false,
} as const;

export const GRID = { stroke: "currentColor", strokeOpacity: 0.12, vertical: false } as const;

export const CHART_BOX = "text-zinc-500 dark:text-zinc-400";

/** Recharts sizes the SVG to this box (its `responsive` prop); inline styles are allowed by our CSP. */
export const chartStyle = (height: number) => ({ width: "100%", height });

export function TooltipBox({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="max-w-[16rem] rounded-lg border border-zinc-200 bg-white/95 px-3 py-2 text-xs text-zinc-700 shadow-md dark:border-zinc-700 dark:bg-zinc-900/95 dark:text-zinc-200">
      <div className="mb-1 font-medium text-zinc-900 dark:text-zinc-100">{title}</div>
      <div className="space-y-0.5">{children}</div>
    </div>
  );
}

export function TooltipRow({ color, label, value }: { color?: string; label: string; value: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="flex items-center gap-1.5">
        {color && <span aria-hidden className="inline-block h-2 w-2 shrink-0 rounded-sm" style={{ backgroundColor: color }} />}
        {label}
      </span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

export function Legend({ items }: { items: { color: string; label: string; dashed?: boolean }[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-[11px] text-zinc-600 dark:text-zinc-400">
      {items.map((i) => (
        <li key={i.label} className="flex items-center gap-1.5">
          <span
            aria-hidden
            className={`inline-block h-0.5 w-3 ${i.dashed ? "border-t-2 border-dashed" : ""}`}
            style={i.dashed ? { borderColor: i.color } : { backgroundColor: i.color, height: 8, width: 8, borderRadius: 2 }}
          />
          {i.label}
        </li>
      ))}
    </ul>
  );
}
