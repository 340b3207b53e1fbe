import "server-only";
import { notFound } from "@/lib/errors";
import { billedInputTokens } from "@/lib/models";
import type { Tx } from "./driver";
import { callInsert, SESSION_TOTALS, tokensTodaySql, type NewLlmCall } from "./llm-calls";
import { SESSION_COLUMNS, type SessionRow } from "./sessions";
import { calibrationUpsert, type CalibrationRow } from "./settings";

/**
 * A reply's call with everything it measured, in one statement: the call, the model's refined
 * calibration, and the session's measured size and running totals. Returns the session as it
 * stands after, and the user's billed tokens today with this call's (the rollup its trigger
 * writes is not visible to the statement that fires it).
 */
export async function recordReplyCall(
  tx: Tx,
  userId: string,
  c: NewLlmCall & { sessionId: string },
  m: { measured: number; raw: number; calibration: CalibrationRow },
): Promise<{ session: SessionRow; tokensToday: number }> {
  const { sql, params } = callInsert(userId, c);
  const u = c.usage;
  const billed = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + u.output_tokens;
  const [row] = await tx.query<SessionRow & { tokens_today: number }>(
    `with call as (${sql} returning 1),
     calibration as (${calibrationUpsert("$1", "$5", "$16", "$17")} returning 1)
     update sessions set ${SESSION_TOTALS}, measured_tokens = $18, measured_raw_tokens = $19, measured_at = now()
     where id = $2 and user_id = $1 and exists (select 1 from call) and exists (select 1 from calibration)
     returning ${SESSION_COLUMNS}, ${tokensTodaySql("$1")} + $20::float8 as tokens_today`,
    [...params, billedInputTokens(u), m.calibration.factor, m.calibration.samples, m.measured, m.raw, billed],
  );
  if (!row) throw notFound("Session", c.sessionId);
  const { tokens_today, ...session } = row;
  return { session, tokensToday: tokens_today };
}
