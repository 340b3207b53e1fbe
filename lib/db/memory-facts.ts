// Fact memories: rows of session_memories with kind 'fact', looked up by subject for
// consolidation and written with their provenance and validity.
import "server-only";
import type { StoredFact } from "@/lib/context/facts";
import type { Tx } from "./driver";
import { COLUMNS, LIVE, type MemoryRow } from "./memories";

/** The user's current (not superseded, not expired) facts about these subjects. */
export async function currentFacts(tx: Tx, userId: string, subjects: readonly string[]): Promise<StoredFact[]> {
  if (subjects.length === 0) return [];
  const rows = await tx.query<{ id: string; fact_subject: string; fact_attribute: string | null; fact_value: string | null; summary: string; valid_from: Date }>(
    `select m.id, m.fact_subject, m.fact_attribute, m.fact_value, m.summary, m.valid_from from session_memories m
     where m.user_id = $1 and m.kind = 'fact' and m.superseded_by is null and m.fact_subject = any($2::text[]) and ${LIVE}
     order by m.valid_from desc, m.id`,
    [userId, [...new Set(subjects)]],
  );
  return rows.map((r) => ({ id: r.id, subject: r.fact_subject, attribute: r.fact_attribute, value: r.fact_value, text: r.summary, validFrom: r.valid_from }));
}

export interface NewFactRow {
  projectId: string | null;
  sessionId: string;
  source: "compaction" | "archive";
  subject: string;
  attribute: string | null;
  value: string | null;
  text: string;
  tags: string[];
  fromSeq: number;
  throughSeq: number;
  validFrom: Date;
  supersededBy: string | null;
  embedding: string | null;
  embeddingModel: string;
  ttlDays: number;
}

export async function insertFact(tx: Tx, userId: string, f: NewFactRow): Promise<MemoryRow> {
  const [row] = await tx.query<MemoryRow>(
    `insert into session_memories (user_id, project_id, session_id, source, summary, tags, embedding, embedding_model, expires_at,
       kind, fact_subject, fact_attribute, fact_value, from_seq, through_seq, valid_from, valid_until, superseded_by, last_seen_at)
     values ($1, $2, $3, $4, $5, $6::text[], $7::vector, $8, now() + make_interval(days => $9),
       'fact', $10, $11, $12, $13, $14, $15::timestamptz, case when $16::uuid is null then null else $15::timestamptz end, $16::uuid, $15::timestamptz)
     returning ${COLUMNS}`,
    [
      userId,
      f.projectId,
      f.sessionId,
      f.source,
      f.text,
      f.tags,
      f.embedding,
      f.embeddingModel,
      f.ttlDays,
      f.subject,
      f.attribute,
      f.value,
      f.fromSeq,
      f.throughSeq,
      f.validFrom,
      f.supersededBy,
    ],
  );
  return row;
}

/**
 * Said again: counted, its last sighting and expiry moved on. The same message seen twice
 * (a session archived twice, or after the compaction that stored the fact) is not a second
 * sighting: it is the fact's own message or the one last counted (same time).
 */
export async function touchFact(tx: Tx, userId: string, id: string, seen: { sessionId: string; throughSeq: number; at: Date; ttlDays: number }): Promise<void> {
  await tx.query(
    `update session_memories m set
       seen_count = seen_count + case when (m.session_id = $3 and $4 <= m.through_seq) or $5 = m.last_seen_at then 0 else 1 end,
       last_seen_at = greatest(coalesce(m.last_seen_at, m.valid_from), $5),
       expires_at = greatest(m.expires_at, now() + make_interval(days => $6))
     where m.id = $1 and m.user_id = $2`,
    [id, userId, seen.sessionId, seen.throughSeq, seen.at, seen.ttlDays],
  );
}

/** Replaced by a newer fact: kept, with the pointer and the end of its validity. */
export async function supersedeFacts(tx: Tx, userId: string, ids: readonly string[], by: string, at: Date): Promise<void> {
  await tx.query(
    `update session_memories set superseded_by = $3, valid_until = $4 where user_id = $1 and id = any($2::uuid[]) and kind = 'fact'`,
    [userId, [...ids], by, at],
  );
}

/** When each of the session's messages was written: a fact is valid from when it was said. */
export async function messageTimes(tx: Tx, sessionId: string, seqs: readonly number[]): Promise<Map<number, Date>> {
  if (seqs.length === 0) return new Map();
  const rows = await tx.query<{ seq: number; created_at: Date }>(
    `select seq, created_at from session_messages($1) where seq = any($2::int[])`,
    [sessionId, [...new Set(seqs)]],
  );
  return new Map(rows.map((r) => [r.seq, r.created_at]));
}

