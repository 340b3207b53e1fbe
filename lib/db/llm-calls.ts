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

/**
 * Records one billed call with its cost at today's prices (its trigger adds it to the usage
 * rollups) and adds it to the session's running totals, in the caller's transaction, so the
 * call, the dashboard's totals and the token bar never disagree.
 */
export async function recordLlmCall(tx: Tx, userId: string, c: NewLlmCall): Promise<number> {
  const u = {
    input: c.usage.input_tokens,
    output: c.usage.output_tokens,
    write: c.usage.cache_creation_input_tokens ?? 0,
    read: c.usage.cache_read_input_tokens ?? 0,
  };
  const cost = costUsd(requireModel(c.model), c.usage);
  await tx.query(
    `insert into llm_calls (user_id, session_id, turn_seq, kind, model, input_tokens, output_tokens,
       cache_creation_input_tokens, cache_read_input_tokens, cost_usd, estimated_input_tokens, window_start_turn,
       capacity_tokens, cache_breakpoints)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      userId,
      c.sessionId,
      c.turnSeq,
      c.kind,
      c.model,
      u.input,
      u.output,
      u.write,
      u.read,
      cost,
      c.estimatedInputTokens ?? null,
      c.windowStartTurn ?? null,
      c.capacityTokens ?? null,
      c.cacheBreakpoints ?? 0,
    ],
  );
  if (c.sessionId) {
    await tx.query(
      `update sessions set cost_usd = cost_usd + $3, billed_input_tokens = billed_input_tokens + $4,
         cache_read_tokens = cache_read_tokens + $5
       where id = $2 and user_id = $1`,
      [userId, c.sessionId, cost, billedInputTokens(c.usage), u.read],
    );
  }
  return cost;
}

/** Billed tokens (input, cache writes and reads, output) the user has used this UTC day, from the rollup. */
export async function tokensToday(tx: Tx, userId: string): Promise<number> {
  const [row] = await tx.query<{ tokens: number }>(
    `select coalesce(sum(input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens), 0)::float8 as tokens
     from llm_usage_daily where user_id = $1 and day = (now() at time zone 'UTC')::date`,
    [userId],
  );
  return row.tokens;
}
