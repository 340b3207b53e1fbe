import "server-only";
import { notFound } from "@/lib/errors";
import { billedInputTokens } from "@/lib/models";
import type { Tx } from "./driver";
import { callInsert, SESSION_TOTALS, tokensTodaySql, type NewLlmCall } from "./llm-calls";
import { endCounters, endParams, endUpdate, messageFromJson, type MessageEnd, type MessageRow } from "./messages";
import { SESSION_COLUMNS, type SessionRow } from "./sessions";
import { calibrationWrite, type CalibrationRow } from "./settings";

/**
 * A reply's end with everything its call measured, in one statement: the reply saved, the call,
 * the model's refined calibration (unless a parallel turn of the user is writing it), and the
 * session's counters, measured size and running totals (its row updated once). Returns the
 * reply, the session as it stands after, and the user's billed tokens today with this call's
 * (the rollup its trigger writes is not visible to the statement that fires it).
 */
export async function finishReply(
  tx: Tx,
  userId: string,
  reply: { id: string; end: MessageEnd },
  c: NewLlmCall & { sessionId: string },
  m: { measured: number; raw: number; calibration: CalibrationRow },
): Promise<{ reply: MessageRow; session: SessionRow; tokensToday: number }> {
  const { sql, params } = callInsert(userId, c);
  const billedInput = billedInputTokens(c.usage);
  const [row] = await tx.query<SessionRow & { tokens_today: number; reply: string }>(
    `with call as (${sql} returning 1),
     ${calibrationWrite("$1", "$5", "$16", "$17")},
     m as (${endUpdate(21)})
     update sessions set ${SESSION_TOTALS}, measured_tokens = $18, measured_raw_tokens = $19, measured_at = now(), ${endCounters(21)}
     where id = $2 and user_id = $1 and exists (select 1 from m) and exists (select 1 from call)
     returning ${SESSION_COLUMNS}, ${tokensTodaySql("$1")} + $20::float8 as tokens_today, (select row_to_json(m)::text from m) as reply`,
    [...params, billedInput, m.calibration.factor, m.calibration.samples, m.measured, m.raw, billedInput + c.usage.output_tokens, ...endParams(reply.id, reply.end)],
  );
  if (!row) throw notFound("Streaming message", reply.id);
  const { tokens_today, reply: saved, ...session } = row;
  return { reply: messageFromJson(saved), session, tokensToday: tokens_today };
}
