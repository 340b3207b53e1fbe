// One session turn by turn: what each turn cost, how full its window was when the API
// measured it, how far our estimate was off, and where compactions and slides happened.
import type { Tx } from "@/lib/db";
import { markTurns, type TurnCall } from "./marks";
import { addSums, CALL_ERROR_SQL, metricsOf, SUM_COLUMNS, ZERO_SUMS, type MetricSums } from "./metrics";
import type { CompactionMarkJson, TurnRowJson, UsageMetrics } from "./types";

interface RawTurn extends MetricSums {
  turn_seq: number | null;
  context_tokens: number | null;
  estimated_input_tokens: number | null;
  capacity_tokens: number | null;
  window_start_turn: number | null;
  chat_at: Date | null;
}

interface RawMark extends Omit<CompactionMarkJson, "created_at"> {
  created_at: Date;
}

/** Open bounds (null) leave that side of the session's history unfiltered. */
export type OpenInterval = { from: Date | null; to: Date | null };

function timeFilter(range: OpenInterval, params: unknown[]): string {
  let sql = "";
  if (range.from) sql += ` and created_at >= $${params.push(range.from)}`;
  if (range.to) sql += ` and created_at < $${params.push(range.to)}`;
  return sql;
}

async function turnCalls(tx: Tx, userId: string, sessionId: string, range: OpenInterval): Promise<RawTurn[]> {
  const params: unknown[] = [userId, sessionId];
  const time = timeFilter(range, params);
  return tx.query<RawTurn>(
    `with c as (
       select id, turn_seq, kind, created_at, input_tokens, output_tokens, cache_creation_input_tokens,
         cache_read_input_tokens, cost_usd, estimated_input_tokens, capacity_tokens, window_start_turn,
         ${CALL_ERROR_SQL} as err
       from llm_calls where user_id = $1 and session_id = $2 ${time}
     ), agg as (
       select turn_seq, count(*)::float8 as requests,
         ${["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "cost_usd"]
           .map((c) => `sum(${c})::float8 as ${c}`)
           .join(", ")},
         0::float8 as compactions, count(err)::float8 as cal_n, coalesce(sum(abs(err)), 0)::float8 as cal_abs,
         coalesce(sum(err), 0)::float8 as cal_err
       from c group by turn_seq
     ), last_chat as (
       -- A turn may call several times (tool use, retries); its last call saw the fullest window.
       select distinct on (turn_seq) turn_seq,
         input_tokens + cache_creation_input_tokens + cache_read_input_tokens as context_tokens,
         estimated_input_tokens, capacity_tokens, window_start_turn, created_at as chat_at
       from c where kind = 'chat' and turn_seq is not null order by turn_seq, created_at desc, id desc
     )
     select agg.*, l.context_tokens, l.estimated_input_tokens, l.capacity_tokens, l.window_start_turn, l.chat_at
     from agg left join last_chat l on l.turn_seq = agg.turn_seq
     order by agg.turn_seq nulls first`,
    params,
  );
}

async function compactionMarks(tx: Tx, userId: string, sessionId: string, range: OpenInterval): Promise<RawMark[]> {
  const params: unknown[] = [userId, sessionId];
  const time = timeFilter(range, params);
  return tx.query<RawMark>(
    `select id, created_at, at_turn, trigger, method, status, from_turn, through_turn, pre_tokens, post_tokens,
       round(reduction_percent::numeric, 2)::float8 as reduction_percent, round(retention_rate::numeric, 4)::float8 as retention_rate
     from compaction_logs where user_id = $1 and session_id = $2 ${time}
     order by created_at, id`,
    params,
  );
}

export interface TurnResult {
  rows: TurnRowJson[];
  totals: UsageMetrics;
  total_rows: number;
}

/** Every turn of the session in the range; `limit` keeps the latest turns. */
export async function turnUsage(tx: Tx, userId: string, sessionId: string, range: OpenInterval, limit: number): Promise<TurnResult> {
  const [calls, marks] = [await turnCalls(tx, userId, sessionId, range), await compactionMarks(tx, userId, sessionId, range)];
  const turns: TurnCall[] = calls.map((c) => ({
    turnSeq: c.turn_seq,
    sums: sumsOf(c),
    contextTokens: c.context_tokens,
    estimatedInputTokens: c.estimated_input_tokens,
    capacityTokens: c.capacity_tokens,
    windowStartTurn: c.window_start_turn,
    chatAt: c.chat_at ? new Date(c.chat_at) : null,
  }));
  const compactions: CompactionMarkJson[] = marks.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() }));
  const marked = markTurns(turns, compactions);
  const total = marked.reduce((acc, t) => addSums(acc, t.sums), ZERO_SUMS);
  const rows = marked.slice(Math.max(0, marked.length - limit)).map(({ sums, ...t }) => ({ ...t, ...metricsOf(sums) }));
  return { rows, totals: metricsOf(total), total_rows: marked.length };
}

function sumsOf(r: RawTurn): MetricSums {
  const out = { ...ZERO_SUMS };
  for (const c of SUM_COLUMNS) out[c] = Number(r[c]);
  return out;
}
