// jsonb parameters are passed as JSON text and cast with `::text::jsonb`: postgres.js re-stringifies
// values it sees as jsonb while PGlite passes strings through, so text is the one encoding both keep.
import "server-only";
import type { MessageJson } from "@/lib/contract";
import { redactedPrefix } from "@/lib/redact";
import { parseLeadingTimestamp } from "@/lib/context/dates";
import type { ContentBlock, EngineMessage, MessageStatus, Role } from "@/lib/context/types";
import { notFound } from "@/lib/errors";
import { recordCarried } from "./files";
import type { Tx } from "./driver";

export interface MessageRow {
  id: string;
  session_id: string;
  seq: number;
  turn_seq: number;
  role: Role;
  content: ContentBlock[];
  text: string;
  token_count: number;
  protected: boolean;
  status: MessageStatus;
  idempotency_key: string | null;
  supersedes_turn: number | null;
  restarts_turn: boolean;
  created_at: Date;
}

const COLUMNS = `id, session_id, seq, turn_seq, role, content, text, token_count, protected, status, idempotency_key,
  supersedes_turn, restarts_turn, created_at`;

const PREVIEW_CHARS = 200;
/** Read beyond a preview's end, so that a key starting inside it is whole when it is redacted. */
export const PREVIEW_READ_CHARS = PREVIEW_CHARS + 4_000;

/**
 * A message's preview (the session picker's last message, a checkpoint's last messages): a
 * copy shown outside the conversation, so secrets in it are redacted; the message is not.
 */
export function messagePreview(text: string): string {
  return redactedPrefix(text, PREVIEW_CHARS);
}

export interface NewMessage {
  role: Role;
  content: ContentBlock[];
  text: string;
  tokenCount: number;
  status: MessageStatus;
  startsTurn: boolean;
  idempotencyKey?: string | null;
  model?: string;
  /** An edit: the earlier turn this user message replaces. */
  supersedesTurn?: number;
  /** A regenerated reply, replacing the turn's earlier replies. */
  restartsTurn?: boolean;
}

/** A new message's parameters, $1-$14, as `SLOT_SET` and `INSERT_FROM_SLOT` read them. */
export function messageParams(userId: string, sessionId: string, m: NewMessage): unknown[] {
  return [
    sessionId,
    userId,
    m.startsTurn,
    m.tokenCount,
    messagePreview(m.text),
    m.role,
    JSON.stringify(m.content),
    m.text,
    m.status,
    m.idempotencyKey ?? null,
    m.model ?? null,
    m.supersedesTurn ?? null,
    m.restartsTurn ?? false,
    parseLeadingTimestamp(m.text),
  ];
}

/** The session's counters for one more message, as an update's SET list ($3 starts a turn, $4 tokens, $5 preview). */
export const SLOT_SET = `next_seq = next_seq + 1, message_count = message_count + 1,
  last_turn_seq = last_turn_seq + (case when $3::boolean then 1 else 0 end),
  tail_tokens = tail_tokens + $4::integer, last_message_at = now(), updated_at = now(),
  last_message_preview = case when $5::text = '' then last_message_preview else $5::text end`;

/** The message's insert, its seq and turn_seq taken from `slot` (the session's row as SLOT_SET left it). */
export const INSERT_FROM_SLOT = `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status, idempotency_key, model,
    supersedes_turn, restarts_turn, said_at)
  select $1::uuid, $2::uuid, slot.next_seq - 1, greatest(slot.last_turn_seq, 1), $6::text, $7::text::jsonb, $8::text, $4::integer, $9::text,
    $10::text, $11::text, $12::integer, $13::boolean, $14::timestamptz
  from slot returning ${COLUMNS}`;

/** A message row read as JSON (row_to_json), as the driver would have returned it. */
export function messageFromJson(json: string): MessageRow {
  const row = JSON.parse(json) as Omit<MessageRow, "created_at"> & { created_at: string };
  return { ...row, created_at: new Date(row.created_at) };
}

/**
 * Appends a message. Its seq and turn_seq come from the session row, updated in the same
 * statement: the row lock keeps seq gap-free and ordered under concurrent writers.
 */
export async function appendMessage(tx: Tx, userId: string, sessionId: string, m: NewMessage): Promise<MessageRow> {
  const [row] = await tx.query<MessageRow>(
    `with slot as (update sessions set ${SLOT_SET} where id = $1 and user_id = $2 returning next_seq, last_turn_seq)
     ${INSERT_FROM_SLOT}`,
    messageParams(userId, sessionId, m),
  );
  if (!row) throw notFound("Session", sessionId);
  await recordCarried(tx, userId, sessionId, [row]);
  return row;
}

/** Saves the partial reply while it streams. */
export async function flushStreaming(tx: Tx, id: string, content: ContentBlock[], text: string): Promise<void> {
  await tx.query(`update messages set content = $2::text::jsonb, text = $3 where id = $1 and status = 'streaming'`, [
    id,
    JSON.stringify(content),
    text,
  ]);
}

/** How a streaming message ends: complete, or interrupted with the text it had. */
export interface MessageEnd {
  content: ContentBlock[];
  text: string;
  tokenCount: number;
  status: Exclude<MessageStatus, "streaming">;
  usage?: unknown;
  stopReason?: string | null;
  error?: unknown;
}

/** The end's parameters, as `endUpdate` and `endCounters` read them from `$first` on (nine). */
export function endParams(id: string, f: MessageEnd): unknown[] {
  return [
    id,
    JSON.stringify(f.content),
    f.text,
    f.tokenCount,
    f.status,
    f.usage === undefined ? null : JSON.stringify(f.usage),
    f.stopReason ?? null,
    f.error === undefined ? null : JSON.stringify(f.error),
    messagePreview(f.text),
  ];
}

const param = (first: number, i: number) => `$${first + i}`;

/** The streaming message's update to its end, returning the row; its parameters (endParams) from `$first`. */
export function endUpdate(first: number): string {
  const p = (i: number) => param(first, i);
  return `update messages set content = ${p(1)}::text::jsonb, text = ${p(2)}, token_count = ${p(3)}, status = ${p(4)},
    usage = ${p(5)}::text::jsonb, stop_reason = ${p(6)}, error = ${p(7)}::text::jsonb
    where id = ${p(0)} and status = 'streaming' returning ${COLUMNS}`;
}

/** The session's counters for a message's end, as an update's SET list; parameters as endUpdate's. */
export function endCounters(first: number): string {
  const p = (i: number) => param(first, i);
  return `tail_tokens = tail_tokens + ${p(3)}::integer,
    last_message_preview = case when ${p(8)}::text = '' then last_message_preview else ${p(8)}::text end`;
}

/** Ends a streaming message (complete or interrupted) and adds its tokens to the window. */
export async function finishMessage(tx: Tx, id: string, f: MessageEnd): Promise<MessageRow> {
  // The message and its session's counters in one statement.
  const [row] = await tx.query<MessageRow>(
    `with m as (${endUpdate(1)}),
     s as (update sessions set ${endCounters(1)} where id = (select session_id from m))
     select * from m`,
    endParams(id, f),
  );
  if (!row) throw notFound("Streaming message", id);
  return row;
}

export async function findByIdempotencyKey(tx: Tx, userId: string, sessionId: string, key: string): Promise<MessageRow | null> {
  const [row] = await tx.query<MessageRow>(
    `select ${COLUMNS} from messages where session_id = $1 and user_id = $2 and idempotency_key = $3`,
    [sessionId, userId, key],
  );
  return row ?? null;
}

export async function turnMessages(tx: Tx, sessionId: string, turnSeq: number): Promise<MessageRow[]> {
  return tx.query<MessageRow>(`select ${COLUMNS} from session_messages($1) where turn_seq = $2 order by seq`, [
    sessionId,
    turnSeq,
  ]);
}

/** One message of the session (a fork's included), or null. */
export async function sessionMessage(tx: Tx, sessionId: string, id: string): Promise<MessageRow | null> {
  const [row] = await tx.query<MessageRow>(`select ${COLUMNS} from session_messages($1) where id = $2`, [sessionId, id]);
  return row ?? null;
}

/** Every edit of the session as [the first turn it replaces, the turn that replaces it] (lib/context/retries.ts). */
export async function turnEdits(tx: Tx, sessionId: string): Promise<[number, number][]> {
  const rows = await tx.query<{ from: number; by: number }>(
    `select supersedes_turn as "from", turn_seq as "by" from session_messages($1) where supersedes_turn is not null`,
    [sessionId],
  );
  return rows.map((r) => [r.from, r.by]);
}

/** The messages of turns `from` to `to`, in order. */
export async function turnsMessages(tx: Tx, sessionId: string, from: number, to: number): Promise<MessageRow[]> {
  return tx.query<MessageRow>(`select ${COLUMNS} from session_messages($1) where turn_seq between $2 and $3 order by seq`, [
    sessionId,
    from,
    to,
  ]);
}

/** One page of history, newest last; `beforeSeq` pages backwards. */
export async function listMessages(
  tx: Tx,
  userId: string,
  sessionId: string,
  beforeSeq: number | undefined,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const page = (lowerBound: boolean) =>
    tx.query<MessageRow>(
      `with b as (select coalesce($3::int, (select next_seq from sessions where id = $1)) as before)
       select ${COLUMNS} from session_messages($1), b where user_id = $2
         and seq < b.before and (not $5 or seq >= b.before - $4)
       order by seq desc limit $4`,
      [sessionId, userId, beforeSeq ?? null, limit + 1, lowerBound],
    );
  // Seqs are contiguous, so a page is a seq range, which both arms of session_messages
  // answer from their indexes. Forks made before forks inherited by reference kept only
  // their window's messages and have gaps; they have no inherited arm, so the unbounded
  // query is just as cheap for them.
  let rows = await page(true);
  if (rows.length <= limit) {
    const all = await page(false);
    if (all.length > rows.length) rows = all;
  }
  const hasMore = rows.length > limit;
  return { rows: rows.slice(0, limit).reverse(), hasMore };
}

// Window reads return one JSON document instead of thousands of rows: PGlite's per-row,
// per-column conversion dominated the time (about 3x slower for a 5,000-message window),
// and the engine needs only these fields.
const ENGINE_JSON = `coalesce(json_agg(json_build_object('seq', seq, 'turnSeq', turn_seq, 'role', role,
  'content', content, 'tokenCount', token_count, 'protected', protected, 'status', status,
  'supersedesTurn', supersedes_turn, 'restartsTurn', restarts_turn, 'createdAt', created_at) order by seq), '[]')::text`;

async function engineMessages(tx: Tx, where: string, params: unknown[]): Promise<EngineMessage[]> {
  const [row] = await tx.query<{ doc: string }>(`select ${ENGINE_JSON} as doc from session_messages($1) where ${where}`, params);
  return JSON.parse(row.doc) as EngineMessage[];
}

/** The contiguous tail of the window: every message from the cutoff turn on. */
export function tailMessages(tx: Tx, sessionId: string, fromTurn: number): Promise<EngineMessage[]> {
  return engineMessages(tx, "turn_seq >= $2", [sessionId, fromTurn]);
}

/** Turns before the cutoff that stay in the window: the first turn and protected turns. */
export async function pinnedMessages(tx: Tx, sessionId: string, beforeTurn: number): Promise<EngineMessage[]> {
  // The turn numbers first, then `turn_seq = any(...)`: a literal list reaches both arms of
  // session_messages as an index condition, where a join against the set scanned every
  // message before the cutoff.
  const turns = await pinnedTurnSeqs(tx, sessionId, beforeTurn);
  if (turns.length === 0) return [];
  return engineMessages(tx, "turn_seq = any($2::int[])", [sessionId, turns]);
}

/** The turns before the cutoff that stay in the window: the first and every protected one. */
export async function pinnedTurnSeqs(tx: Tx, sessionId: string, beforeTurn: number): Promise<number[]> {
  if (beforeTurn <= 1) return [];
  const rows = await tx.query<{ turn_seq: number }>(
    `select 1 as turn_seq union select turn_seq from session_protected_turns($1) where turn_seq < $2 order by 1`,
    [sessionId, beforeTurn],
  );
  return rows.map((r) => r.turn_seq);
}

/**
 * Protects (or unprotects) a message as seen in `sessionId`, by default the session that
 * wrote it. A fork's inherited messages are shared with its source, so there the flag is
 * the fork's own, kept beside the message rather than on it.
 */
export async function setProtected(
  tx: Tx,
  userId: string,
  messageId: string,
  value: boolean,
  sessionId?: string,
): Promise<MessageRow> {
  const [owner] = await tx.query<{ session_id: string; seq: number }>(
    `select session_id, seq from messages where id = $1 and user_id = $2`,
    [messageId, userId],
  );
  if (!owner) throw notFound("Message", messageId);
  const viewer = sessionId ?? owner.session_id;
  if (viewer === owner.session_id) {
    await tx.query(`update messages set protected = $2 where id = $1`, [messageId, value]);
  } else {
    const [inherited] = await tx.query(
      `select 1 from session_lineage where session_id = $1 and user_id = $2 and source_session_id = $3
         and $4 between from_seq and to_seq`,
      [viewer, userId, owner.session_id, owner.seq],
    );
    if (!inherited) throw notFound("Message", messageId);
    if (value) {
      await tx.query(
        `insert into inherited_protection (session_id, message_id, user_id) values ($1, $2, $3) on conflict do nothing`,
        [viewer, messageId, userId],
      );
    } else {
      await tx.query(`delete from inherited_protection where session_id = $1 and message_id = $2`, [viewer, messageId]);
    }
  }
  const [row] = await tx.query<MessageRow>(`select ${COLUMNS} from session_messages($1) where seq = $2`, [viewer, owner.seq]);
  return row;
}

export function messageJson(row: MessageRow, inWindow: boolean): MessageJson {
  return {
    id: row.id,
    session_id: row.session_id,
    seq: row.seq,
    turn_seq: row.turn_seq,
    role: row.role,
    content: row.content,
    text: row.text,
    token_count: row.token_count,
    protected: row.protected,
    status: row.status,
    in_window: inWindow,
    supersedes_turn: row.supersedes_turn,
    restarts_turn: row.restarts_turn,
    created_at: row.created_at.toISOString(),
  };
}
