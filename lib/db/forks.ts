// A fork reads its source's history by reference (session_lineage) rather than copying it,
// so restoring a checkpoint costs the same for 10 messages or 10,000. The source's rows
// are immutable once complete; what may differ per session, the protected flag, is kept
// in inherited_protection.
import "server-only";
import type { Tx } from "./driver";
import { messagePreview, PREVIEW_READ_CHARS } from "./messages";
import { SESSION_COLUMNS, type SessionRow } from "./sessions";

/**
 * Makes `forkId` see `sourceId`'s history through `throughSeq`: the ranges the source
 * itself inherits, then its own messages. A reply still streaming in that range is the one
 * row that may yet change, so it is copied, as interrupted, instead of shared. Protection
 * is taken over as the source sees it now.
 */
export async function inheritHistory(tx: Tx, userId: string, forkId: string, sourceId: string, throughSeq: number): Promise<void> {
  const [{ streaming_from }] = await tx.query<{ streaming_from: number | null }>(
    `select min(seq) as streaming_from from messages where session_id = $1 and status = 'streaming' and seq <= $2`,
    [sourceId, throughSeq],
  );
  const sharedThrough = streaming_from === null ? throughSeq : streaming_from - 1;
  await tx.query(
    `insert into session_lineage (session_id, source_session_id, user_id, from_seq, to_seq)
     select $1::uuid, source_session_id, $2::uuid, from_seq, least(to_seq, $4::int) from session_lineage
       where session_id = $3 and from_seq <= $4
     union all
     select $1, $3, $2, own_from, $4 from (
       select coalesce(max(to_seq), 0) + 1 as own_from from session_lineage where session_id = $3) o
       where own_from <= $4`,
    [forkId, userId, sourceId, sharedThrough],
  );
  await tx.query(
    `insert into inherited_protection (session_id, message_id, user_id)
     select $1::uuid, id, $2::uuid from messages where session_id = $3 and protected and seq <= $4
     union
     select $1, p.message_id, $2 from inherited_protection p join messages m on m.id = p.message_id
       where p.session_id = $3 and m.seq <= $4`,
    [forkId, userId, sourceId, sharedThrough],
  );
  if (streaming_from !== null) {
    await tx.query(
      `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, protected, status, created_at, said_at)
       select $1, user_id, seq, turn_seq, role, content, text, token_count, protected,
         case when status = 'streaming' then 'interrupted' else status end, created_at, said_at
       from session_messages($2) where seq between $3 and $4`,
      [forkId, sourceId, streaming_from, throughSeq],
    );
  }
}

/**
 * Before a session is deleted, every fork still reading part of its history gets its own
 * copy of those rows (with the fork's protection), so deleting a source never takes
 * history away from a fork. Forks of forks list the original source directly, so one pass
 * covers them all.
 */
export async function handOverToForks(tx: Tx, userId: string, sourceId: string): Promise<void> {
  // What the source's deletion would do to its forks anyway (on delete set null), done first: the
  // copy below advances each fork's event number (20261128000030_live_sessions.sql), and a row
  // this transaction changed is checked again when the cascade changes it.
  await tx.query(
    `update sessions set forked_from_checkpoint_id = null
      where user_id = $2 and forked_from_checkpoint_id in (select id from session_checkpoints where session_id = $1)`,
    [sourceId, userId],
  );
  await tx.query(
    `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, protected, status,
       model, usage, stop_reason, error, created_at, search, search_len, said_at)
     select l.session_id, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count,
       exists (select 1 from inherited_protection p where p.session_id = l.session_id and p.message_id = m.id),
       m.status, m.model, m.usage, m.stop_reason, m.error, m.created_at, m.search, m.search_len, m.said_at
     from session_lineage l join messages m on m.session_id = l.source_session_id and m.seq between l.from_seq and l.to_seq
     where l.source_session_id = $1 and l.user_id = $2`,
    [sourceId, userId],
  );
  await tx.query(`delete from session_lineage where source_session_id = $1 and user_id = $2`, [sourceId, userId]);
}

/**
 * A new session forked from `source` after its message `throughSeq` (turn `throughTurn`), as
 * restoring checkpoint `checkpointId` makes it: the source's model, settings, prompt, project
 * and loaded memory, its sequence numbers continuing the source's. Its history comes after
 * (inheritHistory, then setForkPreview).
 */
export async function insertFork(
  tx: Tx,
  userId: string,
  source: SessionRow,
  f: { title: string; checkpointId: string; throughSeq: number; throughTurn: number },
): Promise<SessionRow> {
  const [fork] = await tx.query<SessionRow>(
    `insert into sessions (user_id, title, title_source, model, settings, system_prompt, system_tokens, project_id,
         parent_session_id, forked_from_checkpoint_id, next_seq, last_turn_seq, last_checkpoint_seq,
         memory_text, memory_tokens, memory_loaded_at, instructions)
       select $1, $2, 'user', $3, $4::text::jsonb, $5, $6, $7, $8, $9, $10, $11, $10 - 1,
         memory_text, memory_tokens, memory_loaded_at, instructions from sessions where id = $8
       returning ${SESSION_COLUMNS}`,
    [
      userId,
      f.title,
      source.model,
      JSON.stringify(source.settings),
      source.system_prompt,
      source.system_tokens,
      source.project_id,
      source.id,
      f.checkpointId,
      f.throughSeq + 1,
      f.throughTurn,
    ],
  );
  return fork;
}

/** The fork's message count and list preview: its last inherited message, `throughSeq`. */
export async function setForkPreview(tx: Tx, forkId: string, throughSeq: number): Promise<void> {
  const [last] = await tx.query<{ text: string }>(`select left(text, ${PREVIEW_READ_CHARS}) as text from session_messages($1) where seq = $2`, [
    forkId,
    throughSeq,
  ]);
  await tx.query(`update sessions set message_count = $2, last_message_at = now(), last_message_preview = $3 where id = $1`, [
    forkId,
    throughSeq,
    last ? messagePreview(last.text) : null,
  ]);
}
