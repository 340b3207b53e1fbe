// A fork reads its source's history by reference (session_lineage) rather than copying it,
// so restoring a checkpoint costs the same for 10 messages or 10,000. The source's rows
// are immutable once complete; what may differ per session, the protected flag, is kept
// in inherited_protection.
import "server-only";
import type { Tx } from "./driver";

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
