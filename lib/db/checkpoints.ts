import "server-only";
import type { CheckpointJson, CheckpointTrigger } from "@/lib/contract";
import type { Role } from "@/lib/context/types";
import { notFound } from "@/lib/errors";
import { qualify, type Tx } from "./driver";
import { messagePreview, PREVIEW_READ_CHARS } from "./messages";
import { checkpointName } from "@/lib/context/titles";

export interface CheckpointRow {
  id: string;
  session_id: string;
  label: string | null;
  trigger: CheckpointTrigger;
  auto_tags: string[];
  through_seq: number;
  through_turn: number;
  window_start_turn: number;
  summary_id: string | null;
  summary_text: string | null;
  summary_tokens: number;
  summary_through_turn: number;
  token_count: number;
  /** The session's canvas_version when saved (null: saved before the canvas existed). */
  canvas_version: number | null;
  metadata: { preview?: { role: Role; text: string }[] };
  created_at: Date;
}

const COLUMNS = `id, session_id, label, trigger, auto_tags, through_seq, through_turn, window_start_turn, summary_id,
  summary_text, summary_tokens, summary_through_turn, token_count, canvas_version::float8 as canvas_version, metadata, created_at`;

const PREVIEW_MESSAGES = 3;

/**
 * Saves a checkpoint: a pointer to the session's current state (last message, window start,
 * active summary, token count), never a copy of the history. Its preview of the last
 * messages is the one copy it keeps, and is redacted (messagePreview).
 */
export async function insertCheckpoint(
  tx: Tx,
  userId: string,
  sessionId: string,
  c: { label: string | null; trigger: CheckpointTrigger; tags: string[]; tokenCount: number },
): Promise<CheckpointRow> {
  const last = await tx.query<{ role: Role; text: string }>(
    `select role, left(text, ${PREVIEW_READ_CHARS}) as text from session_messages($2)
     where seq >= (select next_seq from sessions where id = $2 and user_id = $1) - ${PREVIEW_MESSAGES}
     order by seq desc limit ${PREVIEW_MESSAGES}`,
    [userId, sessionId],
  );
  const preview = last.reverse().map((m) => ({ role: m.role, text: messagePreview(m.text) }));
  const [row] = await tx.query<CheckpointRow>(
    `with s as (select * from sessions where id = $2 and user_id = $1)
     insert into session_checkpoints (session_id, user_id, label, trigger, auto_tags, through_seq, through_turn,
       window_start_turn, summary_id, summary_text, summary_tokens, summary_through_turn, token_count, canvas_version, metadata)
     select s.id, $1, $3, $4, $5::text[], s.next_seq - 1, s.last_turn_seq, s.window_start_turn, s.summary_id,
       s.summary_text, s.summary_tokens, s.summary_through_turn, $6, s.canvas_version, $7::text::jsonb
     from s
     returning ${COLUMNS}`,
    [userId, sessionId, c.label, c.trigger, c.tags, c.tokenCount, JSON.stringify({ preview })],
  );
  if (!row) throw notFound("Session", sessionId);
  await tx.query(`update sessions set last_checkpoint_at = now(), last_checkpoint_seq = $2 where id = $1`, [
    sessionId,
    row.through_seq,
  ]);
  return row;
}

/** Keeps the newest `keep` checkpoints of a session; automatic ones are removed before manual ones. */
export async function pruneCheckpoints(tx: Tx, sessionId: string, keep: number): Promise<number> {
  const rows = await tx.query(
    `delete from session_checkpoints where id in (
       select id from session_checkpoints where session_id = $1
       order by (trigger = 'manual') desc, created_at desc, id desc offset $2)
     returning id`,
    [sessionId, keep],
  );
  return rows.length;
}

export async function getCheckpoint(tx: Tx, userId: string, id: string): Promise<CheckpointRow> {
  const [row] = await tx.query<CheckpointRow>(`select ${COLUMNS} from session_checkpoints where id = $1 and user_id = $2`, [
    id,
    userId,
  ]);
  if (!row) throw notFound("Checkpoint", id);
  return row;
}

export async function listCheckpoints(tx: Tx, userId: string, sessionId: string): Promise<CheckpointRow[]> {
  return tx.query<CheckpointRow>(
    `select ${COLUMNS} from session_checkpoints where session_id = $1 and user_id = $2 order by created_at desc, id desc`,
    [sessionId, userId],
  );
}

export async function recentCheckpoints(
  tx: Tx,
  userId: string,
  limit: number,
): Promise<(CheckpointRow & { session_title: string })[]> {
  return tx.query(
    `select ${qualify(COLUMNS, "c")}, s.title as session_title
     from session_checkpoints c join sessions s on s.id = c.session_id
     where c.user_id = $1 order by c.created_at desc, c.id desc limit $2`,
    [userId, limit],
  );
}

export async function latestCheckpoint(tx: Tx, userId: string, sessionId: string): Promise<CheckpointRow | null> {
  const [row] = await tx.query<CheckpointRow>(
    `select ${COLUMNS} from session_checkpoints where session_id = $1 and user_id = $2 order by created_at desc, id desc limit 1`,
    [sessionId, userId],
  );
  return row ?? null;
}

export async function deleteCheckpoint(tx: Tx, userId: string, id: string): Promise<void> {
  const rows = await tx.query(`delete from session_checkpoints where id = $1 and user_id = $2 returning id`, [id, userId]);
  if (rows.length === 0) throw notFound("Checkpoint", id);
}

export function checkpointJson(r: CheckpointRow): CheckpointJson {
  return {
    id: r.id,
    session_id: r.session_id,
    label: r.label,
    name: checkpointName(r.label, r.auto_tags, (r.metadata.preview ?? []).findLast((p) => p.role === "user")?.text ?? null),
    trigger: r.trigger,
    auto_tags: r.auto_tags,
    through_seq: r.through_seq,
    through_turn: r.through_turn,
    token_count: r.token_count,
    preview: r.metadata.preview ?? [],
    summary_id: r.summary_id,
    created_at: r.created_at.toISOString(),
  };
}

/** What a fork shows of the checkpoint it came from; null when it is gone. */
export async function checkpointRef(tx: Tx, userId: string, id: string): Promise<{ id: string; label: string | null; created_at: Date } | null> {
  const [row] = await tx.query<{ id: string; label: string | null; created_at: Date }>(
    `select id, label, created_at from session_checkpoints where id = $1 and user_id = $2`,
    [id, userId],
  );
  return row ?? null;
}
