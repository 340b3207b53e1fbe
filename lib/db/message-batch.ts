import "server-only";
import { carriedFiles } from "@/lib/context/files";
import { recordCarried } from "./files";
import { parseLeadingTimestamp } from "@/lib/context/dates";
import { notFound } from "@/lib/errors";
import type { Tx } from "./driver";
import { messagePreview, type NewMessage } from "./messages";

/**
 * A run of complete messages from elsewhere (a drop-in client's history, an export): no
 * idempotency key. `saidAt`: when it was said there (ISO 8601), kept as the
 * message's time; else now, and the time its text starts with for search.
 */
export type ImportedMessage = Omit<NewMessage, "idempotencyKey" | "status"> & {
  saidAt?: string | null;
  /** The time search dates it by, when kept apart from `saidAt` (Threadkeeper's own export); null: none. */
  searchAt?: string | null;
};

/**
 * Appends messages in order in one statement: the session's counters move once for all of them,
 * each message's seq and turn_seq following from where they stood, as appendMessage would have
 * numbered them one by one. Rows travel as one JSON parameter, so the statement's text is the
 * same for any number of them. Answers the seq of the last.
 */
export async function appendMessages(tx: Tx, userId: string, sessionId: string, ms: readonly ImportedMessage[]): Promise<number> {
  if (ms.length === 0) throw new Error("appendMessages: nothing to append");
  const rows = ms.map((m, ord) => ({
    ord,
    role: m.role,
    content: m.content,
    text: m.text,
    token_count: m.tokenCount,
    starts_turn: m.startsTurn,
    preview: messagePreview(m.text),
    model: m.model ?? null,
    supersedes_turn: m.supersedesTurn ?? null,
    restarts_turn: m.restartsTurn ?? false,
    said_at: m.searchAt !== undefined ? m.searchAt : (m.saidAt ?? parseLeadingTimestamp(m.text)),
    created_at: m.saidAt ?? null,
  }));
  const [row] = await tx.query<{ last_seq: number | null }>(
    `with input as (
       select * from jsonb_to_recordset($3::text::jsonb) as x(ord integer, role text, content jsonb, text text, token_count integer,
         starts_turn boolean, preview text, model text, supersedes_turn integer, restarts_turn boolean, said_at timestamptz, created_at timestamptz)),
     totals as (
       select count(*)::integer as n, (count(*) filter (where starts_turn))::integer as turns, coalesce(sum(token_count), 0)::integer as tokens,
         (select preview from input where preview <> '' order by ord desc limit 1) as preview
       from input),
     slot as (
       update sessions s set next_seq = s.next_seq + t.n, message_count = s.message_count + t.n, last_turn_seq = s.last_turn_seq + t.turns,
         tail_tokens = s.tail_tokens + t.tokens, last_message_at = now(), updated_at = now(),
         last_message_preview = coalesce(t.preview, s.last_message_preview)
       from totals t where s.id = $1 and s.user_id = $2
       returning s.next_seq - t.n as first_seq, s.last_turn_seq - t.turns as turns_before),
     inserted as (
       insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status, model, supersedes_turn, restarts_turn, said_at, created_at)
       select $1::uuid, $2::uuid, slot.first_seq + i.ord,
         greatest(slot.turns_before + sum(case when i.starts_turn then 1 else 0 end) over (order by i.ord), 1),
         i.role, i.content, i.text, i.token_count, 'complete', i.model, i.supersedes_turn, i.restarts_turn, i.said_at, coalesce(i.created_at, now())
       from input i, slot order by i.ord
       returning seq)
     select max(seq) as last_seq from inserted`,
    [sessionId, userId, JSON.stringify(rows)],
  );
  if (row?.last_seq == null) throw notFound("Session", sessionId);
  const carrying = ms.flatMap((m, ord) => (carriedFiles(m.content).length > 0 ? [{ ord, content: m.content }] : []));
  if (carrying.length > 0) {
    const first = row.last_seq - ms.length + 1;
    const turns = await tx.query<{ seq: number; turn_seq: number }>(`select seq, turn_seq from messages where session_id = $1 and seq = any($2::int[])`, [
      sessionId,
      carrying.map((c) => first + c.ord),
    ]);
    const turnOf = new Map(turns.map((t) => [t.seq, t.turn_seq]));
    await recordCarried(tx, userId, sessionId, carrying.map((c) => ({ seq: first + c.ord, turn_seq: turnOf.get(first + c.ord) ?? 1, content: c.content })));
  }
  return row.last_seq;
}
