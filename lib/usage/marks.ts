// Marks a session's turns with their compactions and slides, pure. A slide is the window's
// first turn moving forward between two measured turns by more than the compactions run in
// between account for: whole old turns dropped out of Claude's view without a summary.
import "server-only";
import { ZERO_SUMS, type MetricSums } from "./metrics";
import type { CompactionMarkJson, TurnRowJson, UsageMetrics } from "@/lib/contract/usage";

/** One turn's calls, summed, with the fields of its last chat call. */
export interface TurnCall {
  turnSeq: number | null;
  sums: MetricSums;
  contextTokens: number | null;
  estimatedInputTokens: number | null;
  capacityTokens: number | null;
  windowStartTurn: number | null;
  /** When the last chat call was recorded; orders it against compactions. */
  chatAt: Date | null;
}

/** A turn's own fields, and the sums its metrics are made of. */
export interface MarkedTurn {
  row: Omit<TurnRowJson, keyof UsageMetrics>;
  sums: MetricSums;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** `turns` and `compactions` in any order; answers the turns ascending (turn-less calls first). */
export function markTurns(turns: readonly TurnCall[], compactions: readonly CompactionMarkJson[]): MarkedTurn[] {
  const byTurn = new Map<number | null, TurnCall>(turns.map((t) => [t.turnSeq, t]));
  for (const c of compactions) {
    if (!byTurn.has(c.at_turn)) {
      byTurn.set(c.at_turn, {
        turnSeq: c.at_turn,
        sums: ZERO_SUMS,
        contextTokens: null,
        estimatedInputTokens: null,
        capacityTokens: null,
        windowStartTurn: null,
        chatAt: null,
      });
    }
  }
  const ordered = [...byTurn.values()].sort((a, b) => (a.turnSeq ?? -Infinity) - (b.turnSeq ?? -Infinity));
  const byTime = [...compactions].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  const times = byTime.map((c) => Date.parse(c.created_at));
  const atTurn = new Map<number, CompactionMarkJson[]>();
  for (const c of compactions) atTurn.set(c.at_turn, [...(atTurn.get(c.at_turn) ?? []), c]);

  let prev: TurnCall | null = null;
  return ordered.map((t) => {
    const events = t.turnSeq === null ? [] : (atTurn.get(t.turnSeq) ?? []);
    let slid = 0;
    if (t.windowStartTurn !== null && t.chatAt) {
      if (prev?.windowStartTurn != null && prev.chatAt) {
        const since = prev.chatAt.getTime();
        const until = t.chatAt.getTime();
        // Where the window would start had only compactions moved it.
        let expected = prev.windowStartTurn;
        for (let i = firstAfter(times, since); i < times.length && times[i] <= until; i++) {
          expected = Math.max(expected, byTime[i].through_turn + 1);
        }
        slid = Math.max(0, t.windowStartTurn - expected);
      }
      prev = t;
    }
    const ctx = t.contextTokens;
    const row: MarkedTurn["row"] = {
      turn_seq: t.turnSeq,
      context_tokens: ctx,
      estimated_input_tokens: t.estimatedInputTokens,
      capacity_tokens: t.capacityTokens,
      fill_percent: ctx !== null && t.capacityTokens ? round2((100 * ctx) / t.capacityTokens) : null,
      window_start_turn: t.windowStartTurn,
      estimate_error_percent:
        ctx && t.estimatedInputTokens !== null ? round2((100 * (t.estimatedInputTokens - ctx)) / ctx) : null,
      slide: slid > 0,
      slid_turns: slid,
      compaction_events: events,
    };
    return { row, sums: Object.assign({}, t.sums, { compactions: events.length }) };
  });
}

/** Index of the first time strictly after `t` in an ascending array. */
function firstAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
