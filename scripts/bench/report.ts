// Printing: a readable table per benchmark plus one machine-readable JSON line.
import type { Stat } from "./stats";

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function fmtRatio(naive: Stat, ours: Stat): string {
  const r = naive.medianMs / ours.medianMs;
  return r >= 100 ? `${r.toFixed(0)}x` : `${r.toFixed(1)}x`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString("en-US");
}

/** Left-aligns the first column, right-aligns the rest. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

export function round3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export function statJson(s: Stat): { median_ms: number; p95_ms: number; min_ms: number; runs: number } {
  return { median_ms: round3(s.medianMs), p95_ms: round3(s.p95Ms), min_ms: round3(s.minMs), runs: s.runs };
}
