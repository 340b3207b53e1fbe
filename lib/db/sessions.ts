import "server-only";
import type { ContextSettings, SessionJson } from "@/lib/contract";
import { notFound } from "@/lib/errors";
import type { Tx } from "./driver";
import { tokensTodaySql } from "./llm-calls";

export interface SessionRow {
  id: string;
  user_id: string;
  title: string;
  model: string;
  settings: Partial<ContextSettings>;
  system_prompt: string;
  /** The custom instructions the session carries (lib/context/instructions.ts); system_tokens counts both. */
  instructions: string;
  system_tokens: number;
  next_seq: number;
  last_turn_seq: number;
  message_count: number;
  window_start_turn: number;
  tail_tokens: number;
  pinned_tokens: number;
  canvas_tokens: number;
  /** Id of the newest canvas event applied (0: never changed); the snapshot itself is read only when needed (lib/db/canvas.ts). */
  canvas_version: number;
  measured_tokens: number | null;
  measured_raw_tokens: number | null;
  measured_at: Date | null;
  summary_id: string | null;
  summary_text: string | null;
  summary_tokens: number;
  summary_through_turn: number;
  project_id: string | null;
  parent_session_id: string | null;
  forked_from_checkpoint_id: string | null;
  title_source: string;
  last_checkpoint_at: Date | null;
  last_checkpoint_seq: number;
  /** The drop-in client's view of the conversation, valid while client_view_seq is the last message's seq (lib/context/client-history.ts). */
  client_view_seq: number | null;
  client_view_len: number | null;
  client_view_digest: string | null;
  last_message_preview: string | null;
  memory_text: string | null;
  memory_tokens: number;
  memory_loaded_at: Date | null;
  archived_at: Date | null;
  pinned_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_message_at: Date | null;
  /** What the session's API calls cost so far (USD), their input tokens and the part read from cache. */
  cost_usd: number;
  billed_input_tokens: number;
  cache_read_tokens: number;
  /** Context editing: tool results through this seq are sent as placeholders (lib/context/clearing.ts). */
  cleared_through_seq: number;
  /** Raw tokens those placeholders save in the current window. */
  cleared_tokens: number;
  /** How many file uses the session has (lib/db/files.ts): 0 reads nothing more for a request. */
  file_count: number;
}

export const SESSION_COLUMNS = `id, user_id, title, model, settings, system_prompt, instructions, system_tokens, next_seq, last_turn_seq,
  message_count, window_start_turn, tail_tokens, pinned_tokens, canvas_tokens, canvas_version::float8 as canvas_version, measured_tokens, measured_raw_tokens,
  measured_at, summary_id, summary_text, summary_tokens, summary_through_turn, project_id, parent_session_id, forked_from_checkpoint_id, title_source, last_checkpoint_at,
  last_checkpoint_seq, last_message_preview, memory_text, memory_tokens, memory_loaded_at, archived_at, pinned_at, created_at,
  client_view_seq, client_view_len, client_view_digest,
  updated_at, last_message_at, cost_usd, billed_input_tokens::float8 as billed_input_tokens,
  cache_read_tokens::float8 as cache_read_tokens, cleared_through_seq, cleared_tokens, file_count`;

export async function insertSession(
  tx: Tx,
  userId: string,
  s: { title: string | null; model: string; settings: Partial<ContextSettings>; systemPrompt: string; instructions?: string; systemTokens: number },
): Promise<SessionRow> {
  const [row] = await tx.query<SessionRow>(
    `insert into sessions (user_id, title, title_source, model, settings, system_prompt, instructions, system_tokens)
     values ($1, coalesce($2, 'New session'), case when $2::text is null then 'default' else 'user' end, $3, $4::text::jsonb, $5, $6, $7)
     returning ${SESSION_COLUMNS}`,
    [userId, s.title, s.model, JSON.stringify(s.settings), s.systemPrompt, s.instructions ?? "", s.systemTokens],
  );
  return row;
}

/**
 * Records the drop-in client's view and the tool calls it was just given (its next request may
 * answer them), unless a message was appended after `seq` meanwhile.
 */
export async function recordClientView(tx: Tx, id: string, view: { seq: number; len: number; digest: string; toolIds: readonly string[] }): Promise<void> {
  await tx.query(
    `update sessions set client_view_seq = $2, client_view_len = $3, client_view_digest = $4,
            client_tool_ids = case when cardinality($5::text[]) = 0 then null else $5::text[] end
      where id = $1 and next_seq - 1 = $2`,
    [id, view.seq, view.len, view.digest, view.toolIds],
  );
}

/** Replaces the session's own system prompt (a drop-in caller's `system`). */
export async function setSystemPrompt(tx: Tx, userId: string, id: string, text: string, tokens: number): Promise<void> {
  await tx.query(`update sessions set system_prompt = $3, system_tokens = $4, updated_at = now() where id = $1 and user_id = $2`, [
    id,
    userId,
    text,
    tokens,
  ]);
}

/** Replaces the session's system prompt and custom instructions; `tokens` counts both. */
export async function setSystemText(tx: Tx, userId: string, id: string, s: { prompt: string; instructions: string; tokens: number }): Promise<SessionRow> {
  const [row] = await tx.query<SessionRow>(
    `update sessions set system_prompt = $3, instructions = $4, system_tokens = $5 where id = $1 and user_id = $2 returning ${SESSION_COLUMNS}`,
    [id, userId, s.prompt, s.instructions, s.tokens],
  );
  if (!row) throw notFound("Session", id);
  return row;
}

/** The session and its user's tokens today, in one statement (the status after a turn's writes). */
export async function sessionWithTokensToday(tx: Tx, userId: string, id: string): Promise<{ session: SessionRow; tokensToday: number }> {
  const [row] = await tx.query<SessionRow & { tokens_today: number }>(
    `select ${SESSION_COLUMNS}, ${tokensTodaySql("$2")} as tokens_today from sessions where id = $1 and user_id = $2`,
    [id, userId],
  );
  if (!row) throw notFound("Session", id);
  const { tokens_today, ...session } = row;
  return { session, tokensToday: tokens_today };
}

/** The session, or a 404 — also when it belongs to someone else. */
export async function getSession(tx: Tx, userId: string, id: string, forUpdate = false): Promise<SessionRow> {
  const [row] = await tx.query<SessionRow>(
    `select ${SESSION_COLUMNS} from sessions where id = $1 and user_id = $2${forUpdate ? " for update" : ""}`,
    [id, userId],
  );
  if (!row) throw notFound("Session", id);
  return row;
}

export async function listSessions(tx: Tx, userId: string, limit: number): Promise<SessionRow[]> {
  return tx.query<SessionRow>(
    `select ${SESSION_COLUMNS} from sessions where user_id = $1 order by pinned_at is null, updated_at desc, id limit $2`,
    [userId, limit],
  );
}

/** Every session of the user by id and title, oldest first (the account export). */
export async function allSessionTitles(tx: Tx, userId: string): Promise<{ id: string; title: string }[]> {
  return tx.query<{ id: string; title: string }>(`select id, title from sessions where user_id = $1 order by created_at, id`, [userId]);
}

export async function updateSessionSettings(
  tx: Tx,
  userId: string,
  id: string,
  patch: { settings: Partial<ContextSettings>; model: string },
): Promise<SessionRow> {
  const [row] = await tx.query<SessionRow>(
    `update sessions set settings = $3::text::jsonb, model = $4, updated_at = now()
     where id = $1 and user_id = $2 returning ${SESSION_COLUMNS}`,
    [id, userId, JSON.stringify(patch.settings), patch.model],
  );
  if (!row) throw notFound("Session", id);
  return row;
}

/** Moves the window's counters after messages were appended or turns slid out. */
export async function updateWindow(
  tx: Tx,
  id: string,
  w: { windowStartTurn: number; tailTokens: number; pinnedTokens: number; clearedTokens?: number },
): Promise<void> {
  await tx.query(
    `update sessions set window_start_turn = $2, tail_tokens = $3, pinned_tokens = $4, cleared_tokens = coalesce($5, cleared_tokens) where id = $1`,
    [id, w.windowStartTurn, w.tailTokens, w.pinnedTokens, w.clearedTokens ?? null],
  );
}

/** Moves the context-editing mark: tool results through `seq` are sent as placeholders from now on. */
export async function setClearedThrough(tx: Tx, id: string, seq: number): Promise<void> {
  await tx.query(`update sessions set cleared_through_seq = $2 where id = $1 and cleared_through_seq < $2`, [id, seq]);
}

export async function recordMeasurement(tx: Tx, id: string, measured: number, raw: number): Promise<void> {
  await tx.query(
    `update sessions set measured_tokens = $2, measured_raw_tokens = $3, measured_at = now() where id = $1`,
    [id, measured, raw],
  );
}

/**
 * A lease that lets one turn at a time run per session, across app instances: the reply
 * streams outside any transaction, so a row lock cannot cover it. Expired leases (a crashed
 * instance) are taken over. The fragments below are shared by every statement that takes it.
 */
export const LEASE_FREE = `(turn_lock_id is null or turn_lock_until < now())`;
/** The lease taken as `lease` for `ttlMs` milliseconds (both parameters' names). */
export const leaseSet = (lease: string, ttlMs: string) =>
  `turn_lock_id = ${lease}, turn_lock_until = now() + make_interval(secs => ${ttlMs}::double precision / 1000)`;

/**
 * Takes the lease when free; "busy" when another holds it; a 404 when the session is not the
 * user's (told by the same statement). `clearStop`: a new turn starts with no stop pending (one
 * asked for after the last reply ended is moot).
 */
export async function tryAcquireTurnLease(
  tx: Tx,
  userId: string,
  id: string,
  leaseId: string,
  ttlMs: number,
  clearStop = false,
): Promise<"taken" | "busy"> {
  const [row] = await tx.query<{ taken: boolean; found: boolean }>(
    `with taken as (
       update sessions set ${leaseSet("$3", "$4")}, stop_requested_at = case when $5::boolean then null else stop_requested_at end
       where id = $1 and user_id = $2 and ${LEASE_FREE} returning id)
     select exists (select 1 from taken) as taken, exists (select 1 from sessions where id = $1 and user_id = $2) as found`,
    [id, userId, leaseId, ttlMs, clearStop],
  );
  if (!row.found) throw notFound("Session", id);
  return row.taken ? "taken" : "busy";
}

/** Extends the lease; false when it is no longer this holder's (it expired and was taken over). */
export async function renewTurnLease(tx: Tx, id: string, leaseId: string, ttlMs: number): Promise<boolean> {
  const rows = await tx.query(
    `update sessions set turn_lock_until = now() + make_interval(secs => $3::double precision / 1000)
     where id = $1 and turn_lock_id = $2 returning id`,
    [id, leaseId, ttlMs],
  );
  return rows.length > 0;
}

export async function releaseTurnLease(tx: Tx, id: string, leaseId: string): Promise<void> {
  await tx.query(`update sessions set turn_lock_id = null, turn_lock_until = null where id = $1 and turn_lock_id = $2`, [
    id,
    leaseId,
  ]);
}

export function sessionJson(row: SessionRow): SessionJson {
  return {
    id: row.id,
    title: row.title,
    model: row.model,
    settings: row.settings,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_message_at: row.last_message_at ? row.last_message_at.toISOString() : null,
    message_count: row.message_count,
    project_id: row.project_id,
    parent_session_id: row.parent_session_id,
    forked_from_checkpoint_id: row.forked_from_checkpoint_id,
    title_source: row.title_source,
    pinned: row.pinned_at !== null,
    archived: row.archived_at !== null,
  };
}

export async function patchSession(
  tx: Tx,
  userId: string,
  id: string,
  patch: { title?: string; projectId?: string | null; pinned?: boolean; archived?: false },
): Promise<SessionRow> {
  const [row] = await tx.query<SessionRow>(
    `update sessions set
       title = coalesce($3, title),
       title_source = case when $3::text is null then title_source else 'user' end,
       -- Not updated_at: the picker orders by activity, and renaming is not activity.
       project_id = case when $4 then $5::uuid else project_id end,
       pinned_at = case when $6::boolean is null then pinned_at when $6 then coalesce(pinned_at, now()) end,
       archived_at = case when $7 then null else archived_at end
     where id = $1 and user_id = $2 returning ${SESSION_COLUMNS}`,
    [id, userId, patch.title ?? null, patch.projectId !== undefined, patch.projectId ?? null, patch.pinned ?? null, patch.archived === false],
  );
  if (!row) throw notFound("Session", id);
  return row;
}

export async function setTitle(tx: Tx, id: string, title: string, source: "heuristic" | "llm"): Promise<void> {
  await tx.query(`update sessions set title = $2, title_source = $3 where id = $1 and title_source = 'default'`, [id, title, source]);
}

export async function deleteSession(tx: Tx, userId: string, id: string): Promise<void> {
  const rows = await tx.query(`delete from sessions where id = $1 and user_id = $2 returning id`, [id, userId]);
  if (rows.length === 0) throw notFound("Session", id);
}

export async function dismissRecovery(tx: Tx, userId: string, id: string): Promise<void> {
  await tx.query(`update sessions set recovery_dismissed_at = now() where id = $1 and user_id = $2`, [id, userId]);
}

export async function forksOf(tx: Tx, userId: string, id: string): Promise<SessionRow[]> {
  return tx.query<SessionRow>(
    `select ${SESSION_COLUMNS} from sessions where parent_session_id = $1 and user_id = $2 order by created_at`,
    [id, userId],
  );
}

/** The title of one of the user's sessions (a fork's parent); null when it is gone or not theirs. */
export async function sessionTitle(tx: Tx, userId: string, id: string): Promise<{ id: string; title: string } | null> {
  const [row] = await tx.query<{ id: string; title: string }>(`select id, title from sessions where id = $1 and user_id = $2`, [id, userId]);
  return row ?? null;
}

export async function markArchived(tx: Tx, id: string): Promise<void> {
  await tx.query(`update sessions set archived_at = now() where id = $1`, [id]);
}

/** The memories loaded into the session, as the block its requests carry. */
export async function setSessionMemory(tx: Tx, id: string, text: string | null, tokens: number): Promise<void> {
  await tx.query(`update sessions set memory_text = $2, memory_tokens = $3 where id = $1`, [id, text, tokens]);
}

/** Asks the reply in progress to stop; false when no turn holds the session. */
export async function requestStopOf(tx: Tx, userId: string, id: string): Promise<boolean> {
  const rows = await tx.query(
    `update sessions set stop_requested_at = now()
     where id = $1 and user_id = $2 and turn_lock_id is not null and turn_lock_until > now() returning id`,
    [id, userId],
  );
  return rows.length > 0;
}


/** Whether a stop was asked for this session's turn (checked by the turn every second). */
export async function stopRequested(tx: Tx, id: string): Promise<boolean> {
  const [row] = await tx.query<{ stop: boolean }>(`select stop_requested_at is not null as stop from sessions where id = $1`, [id]);
  return row?.stop ?? false;
}
