import "server-only";
import type { Tx } from "./driver";
import { billedInputTokens, costUsd, requireModel, type TokenUsage } from "@/lib/models";

export type LlmCallKind = "chat" | "summary" | "title";

export interface NewLlmCall {
  sessionId: string | null;
  turnSeq: number | null;
  kind: LlmCallKind;
  model: string;
  usage: TokenUsage;
  /** Chat calls: our calibrated estimate of the request, the window's first turn, capacity C, breakpoints sent. */
  estimatedInputTokens?: number;
  windowStartTurn?: number;
  capacityTokens?: number;
  cacheBreakpoints?: number;
}

/** The call's insert, its parameters ($1-$14) and its cost at today's prices. */
export function callInsert(userId: string, c: NewLlmCall): { sql: string; params: unknown[]; cost: number } {
  const cost = costUsd(requireModel(c.model), c.usage);
  const sql = `insert into llm_calls (user_id, session_id, turn_seq, kind, model, input_tokens, output_tokens,
       cache_creation_input_tokens, cache_read_input_tokens, cost_usd, estimated_input_tokens, window_start_turn,
       capacity_tokens, cache_breakpoints)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;
  const params = [
    userId,
    c.sessionId,
    c.turnSeq,
    c.kind,
    c.model,
    c.usage.input_tokens,
    c.usage.output_tokens,
    c.usage.cache_creation_input_tokens ?? 0,
    c.usage.cache_read_input_tokens ?? 0,
    cost,
    c.estimatedInputTokens ?? null,
    c.windowStartTurn ?? null,
    c.capacityTokens ?? null,
    c.cacheBreakpoints ?? 0,
  ];
  return { sql, params, cost };
}

/** The session's running totals, as an update's SET list ($1 user, $2 session, $9 cache reads, $10 cost, $15 billed input). */
export const SESSION_TOTALS = `cost_usd = cost_usd + $10, billed_input_tokens = billed_input_tokens + $15, cache_read_tokens = cache_read_tokens + $9`;

/**
 * Records one billed call with its cost at today's prices (its trigger adds it to the usage
 * rollups) and adds it to the session's running totals, in the caller's transaction, so the
 * call, the dashboard's totals and the token bar never disagree.
 */
export async function recordLlmCall(tx: Tx, userId: string, c: NewLlmCall): Promise<number> {
  const { sql, params, cost } = callInsert(userId, c);
  if (!c.sessionId) {
    await tx.query(sql, params);
    return cost;
  }
  // The call and its session's running cost in one statement.
  await tx.query(
    `with call as (${sql} returning 1)
     update sessions set ${SESSION_TOTALS} where id = $2 and user_id = $1 and exists (select 1 from call)`,
    [...params, billedInputTokens(c.usage)],
  );
  return cost;
}

/** A user's billed tokens (input, cache writes and reads, output) this UTC day from the rollup, as an SQL expression; `user` is the parameter naming them. */
export const tokensTodaySql = (user: string) => `(select coalesce(sum(input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens), 0)::float8
     from llm_usage_daily where user_id = ${user} and day = (now() at time zone 'UTC')::date)`;

export async function tokensToday(tx: Tx, userId: string): Promise<number> {
  const [row] = await tx.query<{ tokens: number }>(`select ${tokensTodaySql("$1")} as tokens`, [userId]);
  return row.tokens;
}
