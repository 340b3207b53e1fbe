// Timing helpers for the benchmarks: warm-ups, then timed runs, summarised as median and p95.
import { performance } from "node:perf_hooks";

export interface Stat {
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
}

export interface MeasureOptions {
  warmups: number;
  runs: number;
}

const DEFAULT_MEASURE: MeasureOptions = { warmups: 3, runs: 15 };

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

export function summarize(samples: readonly number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    medianMs: median(sorted),
    p95Ms: percentile(sorted, 95),
    minMs: sorted[0],
    maxMs: sorted[sorted.length - 1],
  };
}

/**
 * Runs `fn(i)` `warmups` times untimed, then `runs` times timed one by one. `i` counts all
 * calls (warm-ups included), so callers can vary their input per call to defeat caches.
 */
export async function measure<T>(
  fn: (i: number) => Promise<T> | T,
  opts: MeasureOptions = DEFAULT_MEASURE,
): Promise<{ stat: Stat; last: T }> {
  if (opts.runs < 1) throw new Error("measure: runs must be at least 1");
  let i = 0;
  for (; i < opts.warmups; i++) await fn(i);
  const samples: number[] = [];
  let last!: T;
  for (let r = 0; r < opts.runs; r++, i++) {
    const t0 = performance.now();
    last = await fn(i);
    samples.push(performance.now() - t0);
  }
  return { stat: summarize(samples), last };
}

/** Times one call. */
export async function timeOnce<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** A non-negative integer from the environment, or the fallback when unset. */
export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** Runs `fn` with some environment variables set (undefined: unset), then restores them. */
export function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (v: Record<string, string | undefined>) => {
    for (const [k, val] of Object.entries(v)) {
      if (val === undefined) delete process.env[k];
      else process.env[k] = val;
    }
  };
  set(vars);
  return fn().finally(() => set(saved));
}
