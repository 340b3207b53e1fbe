// Usage and cost for the dashboard and API clients: GET /api/usage (grouped rows, JSON or CSV)
// and GET /api/usage/summary (what the dashboard's first screen needs, in one transaction).
import "server-only";
import { withUser, type Tx } from "@/lib/db";
import { anthropicKey } from "@/lib/llm/stored-key";
import { badRequest, notFound } from "@/lib/errors";
import { compactionPoints, hasAnyUsage, usageSessionVisible } from "@/lib/db/usage/dashboard";
import { groupedUsage, topGroups } from "./groups";
import type { SummaryQuery, UsageQuery } from "@/lib/contract/usage-query";
import { OPEN_END, resolveRange, splitRange, type Interval } from "./range";
import { turnUsage } from "./turns";
import type { UsageReportJson, UsageSummaryJson } from "@/lib/contract/usage";

export { csvResponse, wantsCsv } from "./csv";

/** Enough days for any range the summary is asked for (27 years). */
const ALL_DAYS = 10_000;

function checkOrder(from: Date | null, to: Date | null): void {
  if (from && to && from.getTime() >= to.getTime()) {
    throw badRequest("Invalid 'from': must be before 'to'", { from: from.toISOString(), to: to.toISOString() });
  }
}

function rangeOf(q: { from?: Date; to?: Date }): Interval {
  const range = resolveRange(q);
  checkOrder(range.from, range.to);
  return range;
}

/** How a range is reported: its end is null when it runs up to now. */
function bounds(range: Interval): { from: string; to: string | null } {
  return { from: range.from.toISOString(), to: range.to.getTime() === OPEN_END.getTime() ? null : range.to.toISOString() };
}

/**
 * A session the caller may ask about: one of theirs, or one they deleted whose calls remain.
 * Anything else, another user's session included, is "not found" exactly like an unknown id.
 */
async function assertSessionVisible(tx: Tx, userId: string, sessionId: string): Promise<void> {
  if (!(await usageSessionVisible(tx, userId, sessionId))) throw notFound("Session", sessionId);
}

export async function usageReport(userId: string, q: UsageQuery): Promise<UsageReportJson> {
  return withUser(userId, async (tx) => {
    const sessionId = q.session_id ?? null;
    if (sessionId) await assertSessionVisible(tx, userId, sessionId);
    if (q.group_by === "turn" && sessionId) {
      // A session's turn view covers its whole history unless a bound is given.
      checkOrder(q.from ?? null, q.to ?? null);
      const r = await turnUsage(tx, userId, sessionId, { from: q.from ?? null, to: q.to ?? null }, q.limit);
      return {
        group_by: "turn",
        from: q.from?.toISOString() ?? null,
        to: q.to?.toISOString() ?? null,
        session_id: sessionId,
        ...r,
        truncated: r.rows.length < r.total_rows,
      };
    }
    if (q.group_by === "turn") throw badRequest("Invalid 'session_id': required when group_by is turn");
    const range = rangeOf(q);
    const r = await groupedUsage(tx, userId, q.group_by, { split: splitRange(range), sessionId, limit: q.limit });
    return {
      group_by: q.group_by,
      ...bounds(range),
      session_id: sessionId,
      ...r,
      truncated: r.rows.length < r.total_rows,
    };
  });
}

export async function usageSummary(userId: string, q: SummaryQuery): Promise<UsageSummaryJson> {
  const range = rangeOf(q);
  return withUser(userId, async (tx) => {
    const split = splitRange(range);
    const days = await groupedUsage(tx, userId, "day", { split, sessionId: null, limit: ALL_DAYS });
    const top = await topGroups(tx, userId, "session", { split, sessionId: null, limit: q.limit });
    const compactions = await compactionPoints(tx, userId, range, q.compaction_limit);
    const inRange = days.totals.requests > 0 || days.totals.compactions > 0;
    return {
      ...bounds(range),
      has_usage: inRange || (await hasAnyUsage(tx, userId)),
      offline: anthropicKey().key === null,
      totals: days.totals,
      days: days.rows,
      top_sessions: top,
      compactions,
    };
  });
}
