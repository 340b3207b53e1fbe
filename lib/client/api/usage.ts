// Browser client for the usage API (GET /api/usage, /api/usage/summary), for the dashboard.
import type { TurnRowJson, UsageReportJson, UsageSummaryJson } from "@/lib/contract";
import { json } from "@/lib/client/api/http";

const DAY_MS = 86_400_000;

/** The first instant of the UTC day `days - 1` days before today: "the last N days", today included. */
export function rangeStart(days: number, now: number = Date.now()): string {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS).toISOString();
}

export function usageSummary(from: string, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<UsageSummaryJson> {
  const q = new URLSearchParams({ from, limit: String(opts.limit ?? 50) });
  return json<UsageSummaryJson>(`/api/usage/summary?${q}`, { signal: opts.signal });
}

export function sessionTurns(sessionId: string, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<UsageReportJson<TurnRowJson>> {
  const q = new URLSearchParams({ group_by: "turn", session_id: sessionId, limit: String(opts.limit ?? 500) });
  return json<UsageReportJson<TurnRowJson>>(`/api/usage?${q}`, { signal: opts.signal });
}

/** A download link: `format=csv`, since a link cannot send Accept: text/csv. */
export function csvHref(q: Record<string, string>): string {
  return `/api/usage?${new URLSearchParams({ ...q, format: "csv" })}`;
}
