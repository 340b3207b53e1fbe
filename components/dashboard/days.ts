// The summary's days as charts want them: every day of the range present (quiet days as
// zeros, not gaps in the axis), with per-kind figures flattened for stacking.
import type { DayRowJson } from "@/lib/contract";
import { dayLabel } from "./format";

const DAY_MS = 86_400_000;

export interface DayPoint {
  day: string;
  label: string;
  input: number;
  cache_write: number;
  cache_read: number;
  output: number;
  cost: number;
  cost_input: number;
  cost_cache_write: number;
  cost_cache_read: number;
  cost_output: number;
  requests: number;
  compactions: number;
  /** Percent; null on days without input. */
  cache_hit: number | null;
  calibration_error: number | null;
  calibration_bias: number | null;
  calibration_calls: number;
}

export function dayPoints(rows: DayRowJson[], from: string, now: number = Date.now()): DayPoint[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DayPoint[] = [];
  const last = Math.max(Math.floor(now / DAY_MS) * DAY_MS, ...rows.map((r) => Date.parse(`${r.day}T00:00:00Z`)));
  for (let t = Math.floor(Date.parse(from) / DAY_MS) * DAY_MS; t <= last; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const r = byDay.get(day);
    const c = r?.cost_by_kind;
    out.push({
      day,
      label: dayLabel(day),
      input: r?.input_tokens ?? 0,
      cache_write: r?.cache_creation_input_tokens ?? 0,
      cache_read: r?.cache_read_input_tokens ?? 0,
      output: r?.output_tokens ?? 0,
      cost: r?.cost_usd ?? 0,
      cost_input: c?.input ?? 0,
      cost_cache_write: c?.cache_write ?? 0,
      cost_cache_read: c?.cache_read ?? 0,
      cost_output: c?.output ?? 0,
      requests: r?.requests ?? 0,
      compactions: r?.compactions ?? 0,
      cache_hit: r?.cache_hit_rate == null ? null : r.cache_hit_rate * 100,
      calibration_error: r?.calibration_error_percent ?? null,
      calibration_bias: r?.calibration_bias_percent ?? null,
      calibration_calls: r?.calibration_calls ?? 0,
    });
  }
  return out;
}

/** Dots on a line when there are few days, or few days with a value (one alone draws no line). */
export function showDots(days: DayPoint[], key: "cache_hit" | "calibration_error"): boolean {
  return days.length <= 31 || days.filter((d) => d[key] !== null).length <= 12;
}
