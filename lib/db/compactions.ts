import "server-only";
import type { CacheBreak, CompactionMethod, CompactionStatus, CompactionTrigger, PreservedItemJson } from "@/lib/contract";
import { AppError, notFound } from "@/lib/errors";
import type { Tx } from "./driver";
import { pinnedTurnSeqs } from "./messages";

export interface CompactionRow {
  id: string;
  session_id: string;
  trigger: CompactionTrigger;
  method: CompactionMethod;
  status: CompactionStatus;
  from_turn: number;
  through_turn: number;
  at_seq: number;
  at_turn: number;
  prev_compaction_id: string | null;
  prev_window_start_turn: number;
  summary: string | null;
  summary_tokens: number;
  summary_preview: string;
  items_total: number;
  retention_rate: number;
  preserved_items: PreservedItemJson[];
  omitted_items: PreservedItemJson[];
  pre_tokens: number;
  post_tokens: number;
  reduction_percent: number;
  messages_condensed: number;
  model: string | null;
  template: string;
  instructions: string | null;
  duration_ms: number;
  cost_usd: number;
  fallback_reason: string | null;
  /** Set once the compaction is installed: what it did to the prompt cache. */
  cache_break: CacheBreak | null;
  created_at: Date;
}

const COLUMNS = `id, session_id, trigger, method, status, from_turn, through_turn, at_seq, at_turn, prev_compaction_id,
  prev_window_start_turn, summary, summary_tokens, summary_preview, items_total, retention_rate, preserved_items,
  omitted_items, pre_tokens, post_tokens, reduction_percent, messages_condensed, model, template, instructions,
  duration_ms, cost_usd, fallback_reason, cache_break, created_at`;

export type NewCompaction = Omit<CompactionRow, "id" | "status" | "created_at" | "cache_break"> & { usage: unknown };

export async function insertCompaction(tx: Tx, userId: string, c: NewCompaction): Promise<CompactionRow> {
  const [row] = await tx.query<CompactionRow>(
    `insert into compaction_logs (session_id, user_id, trigger, method, from_turn, through_turn, at_seq, at_turn,
       prev_compaction_id, prev_window_start_turn, summary, summary_tokens, summary_preview, items_total, retention_rate,
       preserved_items, omitted_items, pre_tokens, post_tokens, reduction_percent, messages_condensed, model, template,
       instructions, duration_ms, cost_usd, usage, fallback_reason)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::text::jsonb, $17::text::jsonb, $18, $19,
       $20, $21, $22, $23, $24, $25, $26, $27::text::jsonb, $28)
     returning ${COLUMNS}`,
    [
      c.session_id, userId, c.trigger, c.method, c.from_turn, c.through_turn, c.at_seq, c.at_turn,
      c.prev_compaction_id, c.prev_window_start_turn, c.summary, c.summary_tokens, c.summary_preview, c.items_total,
      c.retention_rate, JSON.stringify(c.preserved_items), JSON.stringify(c.omitted_items), c.pre_tokens, c.post_tokens,
      c.reduction_percent, c.messages_condensed, c.model, c.template, c.instructions, c.duration_ms, c.cost_usd,
      c.usage === null ? null : JSON.stringify(c.usage), c.fallback_reason,
    ],
  );
  return row;
}

export async function getCompaction(tx: Tx, userId: string, id: string): Promise<CompactionRow> {
  const [row] = await tx.query<CompactionRow>(`select ${COLUMNS} from compaction_logs where id = $1 and user_id = $2`, [
    id,
    userId,
  ]);
  if (!row) throw notFound("Compaction", id);
  return row;
}

export async function listCompactions(tx: Tx, userId: string, sessionId: string): Promise<CompactionRow[]> {
  return tx.query<CompactionRow>(
    `select ${COLUMNS} from compaction_logs where session_id = $1 and user_id = $2 order by created_at, id`,
    [sessionId, userId],
  );
}

/** Turn numbers at which the latest automatic compactions ran, oldest first. */
export async function recentAutoTurns(tx: Tx, sessionId: string, limit: number): Promise<number[]> {
  const rows = await tx.query<{ at_turn: number }>(
    `select at_turn from compaction_logs where session_id = $1 and trigger = 'auto' and status <> 'reverted'
     order by created_at desc limit $2`,
    [sessionId, limit],
  );
  return rows.map((r) => r.at_turn).reverse();
}

export async function setCompactionStatus(tx: Tx, id: string, status: CompactionStatus): Promise<void> {
  await tx.query(`update compaction_logs set status = $2 where id = $1`, [id, status]);
}

/**
 * What is known only once a compaction is applied: the window's size after it, the reduction,
 * how long it took, and what it cost the prompt cache.
 */
export async function recordCompactionOutcome(
  tx: Tx,
  id: string,
  o: { postTokens: number; reductionPercent: number; durationMs: number; cacheBreak: CacheBreak },
): Promise<void> {
  await tx.query(`update compaction_logs set post_tokens = $2, reduction_percent = $3, duration_ms = $4, cache_break = $5 where id = $1`, [
    id,
    o.postTokens,
    o.reductionPercent,
    o.durationMs,
    JSON.stringify(o.cacheBreak),
  ]);
}

/** Refuses with a 429 while the session's last manual compaction is under `seconds` old. */
export async function checkManualCooldown(tx: Tx, sessionId: string, seconds: number): Promise<void> {
  const [row] = await tx.query<{ s: number | null }>(
    `select ceil(extract(epoch from (last_manual_compaction_at + make_interval(secs => $2) - now())))::int as s
     from sessions where id = $1`,
    [sessionId, seconds],
  );
  const left = row?.s ?? 0;
  if (left > 0) {
    throw new AppError(429, "rate_limited", `One manual compaction per ${seconds} s per session; try again in ${left} s.`, {
      retry_after_seconds: left,
    }, { "Retry-After": String(left) });
  }
}

/**
 * Starts the cooldown. A conditional update on the session row, so concurrent requests and
 * app instances agree on who got there first.
 */
export async function claimManualCooldown(tx: Tx, sessionId: string, seconds: number): Promise<void> {
  const rows = await tx.query(
    `update sessions set last_manual_compaction_at = now()
     where id = $1 and (last_manual_compaction_at is null or last_manual_compaction_at <= now() - make_interval(secs => $2))
     returning id`,
    [sessionId, seconds],
  );
  if (rows.length === 0) await checkManualCooldown(tx, sessionId, seconds);
}

/** Points the session at a summary (or none) and a new window start, recomputing the window's counters. */
export async function installSummary(
  tx: Tx,
  sessionId: string,
  s: { summaryId: string | null; text: string | null; tokens: number; throughTurn: number; windowStartTurn: number },
): Promise<void> {
  await tx.query(
    `update sessions set summary_id = $2, summary_text = $3, summary_tokens = $4, summary_through_turn = $5,
       window_start_turn = $6,
       tail_tokens = (select coalesce(sum(token_count), 0) from session_messages($1) where turn_seq >= $6),
       pinned_tokens = (select coalesce(sum(token_count), 0) from session_messages($1) where turn_seq = any($7::int[])),
       -- Counted in full above; the next request's window applies the clearing mark again.
       cleared_tokens = 0,
       updated_at = now()
     where id = $1`,
    [sessionId, s.summaryId, s.text, s.tokens, s.throughTurn, s.windowStartTurn, await pinnedTurnSeqs(tx, sessionId, s.windowStartTurn)],
  );
}
