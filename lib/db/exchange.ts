// What Threadkeeper's own export reads beyond the API's shapes, and what its import writes back
// as it was: compactions, checkpoints and canvas events with their own times and states, a
// session's window and flags, files and memories with their times. Each restored row is found
// again by what it is (never by its old id, which belonged to another database), so importing
// the same export twice adds nothing.
import "server-only";
import type { ExportedCanvasEventJson } from "@/lib/contract/exchange";
import type { MemoryKind, MemorySource } from "@/lib/contract/memory";
import type { ContextSettings } from "@/lib/contract/settings";
import type { CheckpointRow } from "./checkpoints";
import type { CompactionRow } from "./compactions";
import type { Tx } from "./driver";
import type { FileRow } from "./files";

/** Each message's model and said_at, by id (a fork's inherited messages included). */
export async function messageExtras(tx: Tx, sessionId: string): Promise<Map<string, { model: string | null; said_at: Date | null }>> {
  const rows = await tx.query<{ id: string; model: string | null; said_at: Date | null }>(
    `select m.id, m.model, m.said_at from messages m where m.id in (select id from session_messages($1))`,
    [sessionId],
  );
  return new Map(rows.map((r) => [r.id, { model: r.model, said_at: r.said_at }]));
}

export async function canvasHistory(tx: Tx, sessionId: string): Promise<ExportedCanvasEventJson[]> {
  return tx.query<ExportedCanvasEventJson>(
    `select id::float8 as id, at_seq, source, tool_use_id, payload from canvas_events where session_id = $1 order by id`,
    [sessionId],
  );
}

/** A compaction as exported: its row without the ids of the database it came from. */
export type RestoredCompaction = Omit<CompactionRow, "id" | "session_id" | "created_at"> & { created_at: string | null };

export async function insertRestoredCompaction(tx: Tx, userId: string, sessionId: string, c: RestoredCompaction): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into compaction_logs (session_id, user_id, trigger, method, status, from_turn, through_turn, at_seq, at_turn,
       prev_compaction_id, prev_window_start_turn, summary, summary_tokens, summary_preview, items_total, retention_rate,
       preserved_items, omitted_items, pre_tokens, post_tokens, reduction_percent, messages_condensed, model, template,
       instructions, duration_ms, cost_usd, fallback_reason, cache_break, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::text::jsonb, $18::text::jsonb, $19, $20,
       $21, $22, $23, $24, $25, $26, $27, $28, $29::text::jsonb, coalesce($30::timestamptz, now()))
     returning id`,
    [
      sessionId, userId, c.trigger, c.method, c.status, c.from_turn, c.through_turn, c.at_seq, c.at_turn,
      c.prev_compaction_id, c.prev_window_start_turn, c.summary, c.summary_tokens, c.summary_preview, c.items_total,
      c.retention_rate, JSON.stringify(c.preserved_items), JSON.stringify(c.omitted_items), c.pre_tokens, c.post_tokens,
      c.reduction_percent, c.messages_condensed, c.model, c.template, c.instructions, c.duration_ms, c.cost_usd,
      c.fallback_reason, c.cache_break === null ? null : JSON.stringify(c.cache_break), c.created_at,
    ],
  );
  return row.id;
}

export type RestoredCheckpoint = Omit<CheckpointRow, "id" | "session_id" | "metadata" | "created_at"> & {
  preview: NonNullable<CheckpointRow["metadata"]["preview"]>;
  created_at: string;
};

export async function insertRestoredCheckpoint(tx: Tx, userId: string, sessionId: string, c: RestoredCheckpoint): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into session_checkpoints (session_id, user_id, label, trigger, auto_tags, through_seq, through_turn, window_start_turn,
       summary_id, summary_text, summary_tokens, summary_through_turn, token_count, canvas_version, metadata, created_at)
     values ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::text::jsonb, $16) returning id`,
    [
      sessionId, userId, c.label, c.trigger, c.auto_tags, c.through_seq, c.through_turn, c.window_start_turn, c.summary_id,
      c.summary_text, c.summary_tokens, c.summary_through_turn, c.token_count, c.canvas_version, JSON.stringify({ preview: c.preview }), c.created_at,
    ],
  );
  return row.id;
}

/** The events in order; answers their new ids, in the same order. */
export async function insertRestoredCanvasEvents(tx: Tx, userId: string, sessionId: string, events: readonly ExportedCanvasEventJson[]): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `insert into canvas_events (session_id, user_id, at_seq, payload, source, tool_use_id)
     select $1, $2, (e.v ->> 'at_seq')::int, e.v -> 'payload', e.v ->> 'source', e.v ->> 'tool_use_id'
     from jsonb_array_elements($3::text::jsonb) with ordinality as e(v, n)
     order by e.n
     returning id::float8 as id`,
    [sessionId, userId, JSON.stringify(events)],
  );
  // Ids come from one sequence in insertion order.
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The session's own settings and flags as the export had them. */
export async function restoreSessionFields(
  tx: Tx,
  sessionId: string,
  s: {
    model: string;
    settings: Partial<ContextSettings>;
    instructions: string | null;
    titleSource: string;
    pinned: boolean;
    archived: boolean;
    clearedThroughSeq: number;
    lastCheckpoint: { at: string; seq: number } | null;
    memory: { text: string | null; tokens: number; loaded_at: string | null } | null;
  },
): Promise<void> {
  await tx.query(
    `update sessions set model = $2, settings = $3::text::jsonb, instructions = coalesce($4, instructions), title_source = $5,
       pinned_at = case when $6 then coalesce(pinned_at, updated_at) end, archived_at = case when $7 then coalesce(archived_at, updated_at) end,
       cleared_through_seq = $8, last_checkpoint_at = $9::timestamptz, last_checkpoint_seq = coalesce($10, last_checkpoint_seq),
       memory_text = case when $11 then $12 else memory_text end, memory_tokens = case when $11 then $13 else memory_tokens end,
       memory_loaded_at = case when $11 then $14::timestamptz else memory_loaded_at end
     where id = $1`,
    [
      sessionId, s.model, JSON.stringify(s.settings), s.instructions, s.titleSource, s.pinned, s.archived, s.clearedThroughSeq,
      s.lastCheckpoint?.at ?? null, s.lastCheckpoint?.seq ?? null, s.memory !== null, s.memory?.text ?? null, s.memory?.tokens ?? 0, s.memory?.loaded_at ?? null,
    ],
  );
}

export async function protectSeqs(tx: Tx, sessionId: string, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await tx.query(`update messages set protected = true where session_id = $1 and seq = any($2::int[])`, [sessionId, seqs]);
}

export type RestoredFile = Omit<FileRow, "id" | "user_id" | "session_id" | "created_at"> & { created_at: string };

/** The user's file that is this one (same bytes, name and time): imported before, or never gone. */
export async function findRestoredFile(tx: Tx, userId: string, f: Pick<RestoredFile, "sha256" | "name" | "created_at">): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(`select id from files where user_id = $1 and sha256 = $2 and name = $3 and created_at = $4::timestamptz limit 1`, [
    userId,
    f.sha256,
    f.name,
    f.created_at,
  ]);
  return row?.id ?? null;
}

export async function insertRestoredFile(tx: Tx, userId: string, sessionId: string | null, f: RestoredFile): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into files (user_id, session_id, name, media_type, kind, size, sha256, tokens, pages, width, height, extraction, about, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
    [userId, sessionId, f.name, f.media_type, f.kind, f.size, f.sha256, f.tokens, f.pages, f.width, f.height, f.extraction, f.about, f.created_at],
  );
  return row.id;
}

export interface RestoredMemory {
  sessionId: string | null;
  projectId: string | null;
  source: MemorySource;
  kind: MemoryKind;
  summary: string;
  keyDecisions: string[];
  codeReferences: string[];
  tags: string[];
  pinned: boolean;
  embedding: string | null;
  embeddingModel: string;
  createdAt: string;
  expiresAt: string | null;
  fact: {
    subject: string;
    attribute: string | null;
    value: string | null;
    fromSeq: number;
    throughSeq: number;
    validFrom: string;
    validUntil: string | null;
    seenCount: number;
    lastSeenAt: string;
  } | null;
}

/** The user's memory that is this one (same kind, text and time). */
export async function findRestoredMemory(tx: Tx, userId: string, m: Pick<RestoredMemory, "kind" | "summary" | "createdAt">): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    `select id from session_memories where user_id = $1 and kind = $2 and summary = $3 and created_at = $4::timestamptz limit 1`,
    [userId, m.kind, m.summary, m.createdAt],
  );
  return row?.id ?? null;
}

export async function insertRestoredMemory(tx: Tx, userId: string, m: RestoredMemory): Promise<string> {
  const f = m.fact;
  const [row] = await tx.query<{ id: string }>(
    `insert into session_memories (user_id, session_id, source, kind, summary, key_decisions, code_references, tags, pinned, embedding,
       embedding_model, created_at, expires_at, fact_subject, fact_attribute, fact_value, from_seq, through_seq, valid_from, valid_until,
       seen_count, last_seen_at, about, project_id)
     values ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8::text[], $9, $10::vector, $11, $12, $13, $14, $15, $16, $17, $18,
       $19, $20, coalesce($21, 1), $22, to_tsvector('english', $5), $23)
     returning id`,
    [
      userId, m.sessionId, m.source, m.kind, m.summary, JSON.stringify(m.keyDecisions), JSON.stringify(m.codeReferences), m.tags, m.pinned,
      m.embedding, m.embeddingModel, m.createdAt, m.expiresAt, f?.subject ?? null, f?.attribute ?? null, f?.value ?? null, f?.fromSeq ?? null,
      f?.throughSeq ?? null, f?.validFrom ?? null, f?.validUntil ?? null, f?.seenCount ?? null, f?.lastSeenAt ?? null, m.projectId,
    ],
  );
  return row.id;
}

export async function setSupersededBy(tx: Tx, userId: string, id: string, by: string): Promise<void> {
  await tx.query(`update session_memories set superseded_by = $3 where id = $1 and user_id = $2`, [id, userId, by]);
}

/** A session's own messages' seq and turn, in order (what an import just appended). */
export async function storedSeqs(tx: Tx, sessionId: string): Promise<{ seq: number; turn: number }[]> {
  return tx.query<{ seq: number; turn: number }>(`select seq, turn_seq as turn from messages where session_id = $1 order by seq`, [sessionId]);
}

/** A restored file's session, once that session is imported too. */
export async function setFileSession(tx: Tx, userId: string, fileId: string, sessionId: string): Promise<void> {
  await tx.query(`update files set session_id = $3 where id = $1 and user_id = $2 and session_id is null`, [fileId, userId, sessionId]);
}

export async function markInterrupted(tx: Tx, sessionId: string, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await tx.query(`update messages set status = 'interrupted' where session_id = $1 and seq = any($2::int[]) and role = 'assistant'`, [sessionId, seqs]);
}

/** The session's own times as the export had them (markImported stamps the import's view of them). */
export async function restoreTimes(tx: Tx, sessionId: string, s: { created_at: string; updated_at: string; last_message_at: string | null }): Promise<void> {
  await tx.query(`update sessions set created_at = $2, updated_at = $3, last_message_at = $4 where id = $1`, [sessionId, s.created_at, s.updated_at, s.last_message_at]);
}

/** A fork's links: its parent, and the parent's checkpoint it came from when that is the parent's. */
export async function setForkLinks(tx: Tx, sessionId: string, parentId: string, checkpointId: string | null): Promise<void> {
  await tx.query(
    `update sessions set parent_session_id = $2,
       forked_from_checkpoint_id = (select id from session_checkpoints where id = $3::uuid and session_id = $2)
     where id = $1`,
    [sessionId, parentId, checkpointId],
  );
}
