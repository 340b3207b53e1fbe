// Shaping a canvas chart for recharts: series colours that read on light and dark panels,
// axis numbers that fit a narrow panel, and pie slices (which cannot show nulls or negatives).
// Pure.
import type { ChartElement } from "@/lib/contract/canvas-elements";

/** Mid-tone colours, distinguishable from each other and legible on white and on zinc-900. */
export const SERIES_COLORS = ["#0ea5e9", "#f59e0b", "#10b981", "#8b5cf6", "#ef4444", "#14b8a6", "#ec4899", "#84cc16"] as const;

export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length] as string;
}

/** Axis ticks: 1200 → "1.2k", 2500000 → "2.5M", 0.25 → "0.25"; the panel is narrow. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  const scaled = (d: number, suffix: string) => `${trim((n / d).toFixed(1))}${suffix}`;
  if (abs >= 1e9) return scaled(1e9, "B");
  if (abs >= 1e6) return scaled(1e6, "M");
  if (abs >= 1e4) return scaled(1e3, "k");
  if (Number.isInteger(n)) return String(n);
  return trim(n.toFixed(abs >= 10 ? 1 : 2));
}

function trim(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** A value as the tooltip says it: full precision (up to 4 decimals), grouped, with the unit. */
export function formatValue(v: unknown, unit?: string): string {
  if (typeof v !== "number") return "—";
  const text = v.toLocaleString("en-US", { maximumFractionDigits: 4 });
  if (!unit) return text;
  // "%" and "°C" sit on the number; words ("ms", "users") after a space.
  return /^[%°]/.test(unit) ? `${text}${unit}` : `${text} ${unit}`;
}

export interface PieSlice {
  name: string;
  value: number;
}

/** The slices a pie can draw: rows with a positive value, named by their category. */
export function pieSlices(chart: Pick<ChartElement, "data" | "x_key" | "y_keys">): PieSlice[] {
  const key = chart.y_keys[0];
  if (key === undefined) return [];
  return chart.data.flatMap((row) => {
    const v = row[key];
    if (typeof v !== "number" || !(v > 0)) return [];
    const name = row[chart.x_key];
    return [{ name: name === null || name === undefined ? "—" : String(name), value: v }];
  });
}

/** Whether anything would be drawn: a chart of only nulls shows a note instead of empty axes. */
export function hasValues(chart: Pick<ChartElement, "data" | "y_keys">): boolean {
  return chart.data.some((row) => chart.y_keys.some((k) => typeof row[k] === "number"));
}
