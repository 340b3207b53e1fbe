// One session turn by turn: what each turn cost, how full its window was when the API
// measured it, how far our estimate was off, and where compactions and slides happened.
import "server-only";
import type { Tx } from "@/lib/db";
import { groupedUsage } from "./groups";
import { markTurns, type TurnCall } from "./marks";
import { compactionMarks, turnCalls, turnSpan, type OpenInterval } from "@/lib/db/usage/turns";
import { metricsOf, sumsFromArray } from "./metrics";
import { OPEN_END, splitRange } from "./range";
import type { CompactionMarkJson, TurnRowJson, UsageMetrics } from "@/lib/contract/usage";

export type { OpenInterval };

export interface TurnResult {
  rows: TurnRowJson[];
  totals: UsageMetrics;
  total_rows: number;
}

/** Before any call: an open start as a closed one (OPEN_END is the open end). */
const OPEN_START = new Date("1970-01-01T00:00:00Z");

/**
 * The session's turns in the range; `limit` keeps the latest. Totals cover every turn and come
 * from the rollups (like any session filter), so only the shown turns' calls are read.
 */
export async function turnUsage(tx: Tx, userId: string, sessionId: string, range: OpenInterval, limit: number): Promise<TurnResult> {
  const span = await turnSpan(tx, userId, sessionId, range, limit);
  const calls = await turnCalls(tx, userId, sessionId, range, span.floor);
  const marks = await compactionMarks(tx, userId, sessionId, range, span.floor);
  const closed = { from: range.from ?? OPEN_START, to: range.to ?? OPEN_END };
  const { totals } = await groupedUsage(tx, userId, "session", { split: splitRange(closed), sessionId, limit: 1 });
  const turns: TurnCall[] = calls.map((raw) => {
    const [turnSeq, lastChat] = raw;
    const [at, context, estimate, capacity, windowStart] = lastChat ?? [];
    return {
      turnSeq,
      sums: sumsFromArray(raw, 2),
      contextTokens: context ?? null,
      estimatedInputTokens: estimate ?? null,
      capacityTokens: capacity ?? null,
      windowStartTurn: windowStart ?? null,
      chatAt: at == null ? null : new Date(at * 1000),
    };
  });
  const compactions: CompactionMarkJson[] = marks.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() }));
  const marked = markTurns(turns, compactions);
  // The turn before the first shown was read only to tell whether the window slid since.
  const shown = marked.slice(-limit);
  // A turn's calls are not priced by kind (its summary may run on another model): no split.
  // Object.assign, not a spread: see groupedUsage.
  const rows: TurnRowJson[] = shown.map((t) => Object.assign(t.row, metricsOf(t.sums, false)));
  return { rows, totals, total_rows: span.total };
}

