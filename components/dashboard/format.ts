// Figures as the dashboard shows them.
import { compactTokens, usd } from "@/lib/client/format";

export { compactTokens, usd };

/** Axis ticks: short. */
export function usdTick(n: number): string {
  if (n === 0) return "$0";
  if (Math.abs(n) < 1) return `$${n.toFixed(2)}`;
  if (Math.abs(n) < 1000) return `$${Math.round(n)}`;
  return `$${compactTokens(n)}`;
}

export function percent(x: number | null, digits = 0): string {
  return x === null ? "–" : `${x.toFixed(digits)}%`;
}

const DAY_FMT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const TIME_FMT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

/** "2026-11-23" (a UTC day) → "Nov 23". */
export function dayLabel(day: string): string {
  return DAY_FMT.format(new Date(`${day}T00:00:00Z`));
}

/** An instant in the viewer's time zone. */
export function timeLabel(iso: string): string {
  return TIME_FMT.format(new Date(iso));
}

export function sessionName(s: { session_id: string | null; title: string | null; deleted: boolean }): string {
  if (s.deleted) return "Deleted session";
  if (s.session_id === null) return "Outside any session";
  return s.title || "Untitled session";
}
