// The usage API's small reads: the compactions of a time range for the dashboard's timeline
// (before → after, method, retention, with the session they ran in), whether a session's usage
// may be shown, whether there is any usage at all.
import "server-only";
import type { Tx } from "../driver";
import type { Interval } from "./sums";
import type { CompactionPointJson } from "@/lib/contract/usage";

/** The latest `limit` compactions of the range, oldest first. */
export async function compactionPoints(tx: Tx, userId: string, range: Interval, limit: number): Promise<CompactionPointJson[]> {
  // One JSON text rather than a row per compaction: PGlite hands rows over value by value, slowly.
  const [row] = await tx.query<{ doc: string }>(
    `select coalesce(json_agg(p order by p.created_at, p.id), '[]')::text as doc from (
       select l.id, l.session_id, s.title,
         to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, l.at_turn, l.trigger, l.method,
         l.status, l.from_turn, l.through_turn, l.pre_tokens, l.post_tokens,
         round(l.reduction_percent::numeric, 2)::float8 as reduction_percent,
         round(l.retention_rate::numeric, 4)::float8 as retention_rate, l.model, l.cost_usd
       from compaction_logs l join sessions s on s.id = l.session_id and s.user_id = $1
       where l.user_id = $1 and l.created_at >= $2 and l.created_at < $3
       order by l.created_at desc, l.id desc limit $4
     ) p`,
    [userId, range.from, range.to, limit],
  );
  return JSON.parse(row.doc) as CompactionPointJson[];
}

/**
 * Whether the user may ask about the session's usage: one of theirs, or one they deleted
 * whose calls remain.
 */
export async function usageSessionVisible(tx: Tx, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await tx.query<{ visible: boolean }>(
    `select exists (select 1 from sessions where id = $2 and user_id = $1)
         or exists (select 1 from llm_calls where session_id = $2 and user_id = $1) as visible`,
    [userId, sessionId],
  );
  return row?.visible ?? false;
}

/** Whether the user has any usage at all, at any time: a call or a compaction. */
export async function hasAnyUsage(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.query<{ any: boolean }>(
    `select exists (select 1 from llm_calls where user_id = $1) or exists (select 1 from compaction_logs where user_id = $1) as any`,
    [userId],
  );
  return row?.any ?? false;
}
