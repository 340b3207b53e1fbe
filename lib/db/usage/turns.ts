// One session's usage turn by turn: how many turns it has, each turn's sums and last chat
// call, and the compactions between them. lib/usage/turns.ts marks and shapes them.
import "server-only";
import type { CompactionMarkJson } from "@/lib/contract/usage";
import type { Tx } from "../driver";
import { CALL_ERROR_SQL, SUM_COLUMNS } from "./sums";

/** A turn as the statement writes it: turn_seq, its last chat call, then SUM_COLUMNS in order. */
export type RawTurn = [turnSeq: number | null, lastChat: LastChat | null, ...sums: number[]];

/** The turn's last chat call: [epoch seconds, measured input, estimate, capacity, window start]. */
export type LastChat = [number, number, number | null, number | null, number | null];

export interface RawMark extends Omit<CompactionMarkJson, "created_at"> {
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

/**
 * How many turns the session has (with calls or compactions) and the first of its latest
 * `limit + 1` turns with calls: the turn before the latest `limit` is read too, so the first
 * shown can be compared with it for a slide. Null when every turn is shown. Both walk the
 * (session_id, turn_seq) index alone, the second backwards and only as far as it needs.
 */
export async function turnSpan(
  tx: Tx,
  userId: string,
  sessionId: string,
  range: OpenInterval,
  limit: number,
): Promise<{ total: number; floor: number | null }> {
  const params: unknown[] = [userId, sessionId];
  const time = timeFilter(range, params);
  const calls = `from llm_calls where user_id = $1 and session_id = $2 ${time}`;
  const [row] = await tx.query<{ total: number; floor: number | null }>(
    `select
       (select count(*) from (select distinct turn_seq ${calls}) d)::int
         + (select count(distinct at_turn) from compaction_logs c where user_id = $1 and session_id = $2 ${time}
              and not exists (select 1 from llm_calls l where l.user_id = $1 and l.session_id = $2 and l.turn_seq = c.at_turn
                ${time.replaceAll("created_at", "l.created_at")}))::int
         as total,
       (select min(turn_seq) from (
          select distinct turn_seq ${calls} and turn_seq is not null order by turn_seq desc limit $${params.push(limit + 1)}
        ) latest having count(*) > $${params.push(limit)}) as floor`,
    params,
  );
  return { total: row?.total ?? 0, floor: row?.floor ?? null };
}

/** Each column of SUM_COLUMNS over a turn's calls (not priced by kind: see turnUsage). */
const TURN_SUMS: Record<(typeof SUM_COLUMNS)[number], string> = {
  requests: "count(*)",
  input_tokens: "sum(input_tokens)",
  output_tokens: "sum(output_tokens)",
  cache_creation_input_tokens: "sum(cache_creation_input_tokens)",
  cache_read_input_tokens: "sum(cache_read_input_tokens)",
  cost_usd: "sum(cost_usd)",
  compactions: "0",
  cal_n: "count(err)",
  cal_abs: "coalesce(sum(abs(err)), 0)",
  cal_err: "coalesce(sum(err), 0)",
  list_in: "0",
  list_out: "0",
  list_w: "0",
  list_r: "0",
};

export async function turnCalls(tx: Tx, userId: string, sessionId: string, range: OpenInterval, floor: number | null): Promise<RawTurn[]> {
  const params: unknown[] = [userId, sessionId];
  const time = timeFilter(range, params) + (floor === null ? "" : ` and turn_seq >= $${params.push(floor)}`);
  const [row] = await tx.query<{ doc: string }>(
    // One JSON text rather than a row per turn: PGlite hands rows over value by value, slowly.
    `select coalesce(json_agg(json_build_array(turn_seq, last_chat, ${SUM_COLUMNS.map((c) => `${c}::float8`).join(", ")})
       order by turn_seq nulls first), '[]')::text as doc
     from (
       select turn_seq, ${SUM_COLUMNS.map((c) => `${TURN_SUMS[c]} as ${c}`).join(", ")},
         -- A turn may call several times (tool use, retries); its last call saw the fullest window.
         -- Arrays compare element by element, so the greatest is the latest call's (one pass, no sort).
         max(array[extract(epoch from created_at)::float8,
           (input_tokens + cache_creation_input_tokens + cache_read_input_tokens)::float8,
           estimated_input_tokens::float8, capacity_tokens::float8, window_start_turn::float8]) filter (where kind = 'chat') as last_chat
       from (select *, ${CALL_ERROR_SQL} as err from llm_calls where user_id = $1 and session_id = $2 ${time}) c
       group by turn_seq
     ) t`,
    params,
  );
  return JSON.parse(row.doc) as RawTurn[];
}

export async function compactionMarks(tx: Tx, userId: string, sessionId: string, range: OpenInterval, floor: number | null): Promise<RawMark[]> {
  const params: unknown[] = [userId, sessionId];
  const time = timeFilter(range, params) + (floor === null ? "" : ` and at_turn >= $${params.push(floor)}`);
  return tx.query<RawMark>(
    `select id, created_at, at_turn, trigger, method, status, from_turn, through_turn, pre_tokens, post_tokens,
       round(reduction_percent::numeric, 2)::float8 as reduction_percent, round(retention_rate::numeric, 4)::float8 as retention_rate
     from compaction_logs where user_id = $1 and session_id = $2 ${time}
     order by created_at, id`,
    params,
  );
}
