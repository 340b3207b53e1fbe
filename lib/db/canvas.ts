// The canvas's rows: its events (canvas_events, in the session's history order) and the
// snapshot on the session row that every request reads instead of replaying them.
//
// Writing a large jsonb snapshot costs several times an event's row, so the snapshot is
// rewritten only every SNAPSHOT_EVERY changes: it records the version it holds (`at`), and a
// reader applies the few events after it. canvas_version and canvas_tokens are always current.
import "server-only";
import { EMPTY_CANVAS, type CanvasState } from "@/lib/contract/canvas-elements";
import { isCanvasEvent, replay } from "@/lib/canvas/reducer";
import type { CanvasEvent } from "@/lib/contract/canvas";
import { notFound } from "@/lib/errors";
import type { Tx } from "./driver";

export type CanvasSource = "claude" | "user" | "restore";

export interface StoredCanvas {
  state: CanvasState;
  version: number;
  tokens: number;
  /** Changes since the stored snapshot (0: it is the canvas). */
  pending?: number;
}

export const SNAPSHOT_EVERY = 16;

type Snapshot = CanvasState & { at?: number };

export interface NewCanvasEvent {
  event: CanvasEvent;
  source: CanvasSource;
  toolUseId?: string;
}

/**
 * Snapshots this process read or wrote, by session, with their version. Only ever a read
 * cache: the version on the (locked) row decides whether it is still the canvas, so another
 * instance's change is never missed; it saves parsing a large jsonb snapshot per tool call.
 */
const recent = new Map<string, { version: number; state: CanvasState; pending: number }>();
const RECENT_MAX = 200;

function remember(sessionId: string, version: number, state: CanvasState, pending: number): void {
  recent.delete(sessionId);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(sessionId, { version, state, pending });
}

/** The session's current canvas; `forUpdate` locks the row so concurrent changes apply in turn. A 404 for someone else's session. */
export async function readCanvas(tx: Tx, userId: string, sessionId: string, forUpdate = false): Promise<StoredCanvas> {
  const lock = forUpdate ? " for update" : "";
  const [head] = await tx.query<{ version: number; tokens: number }>(
    `select canvas_version::float8 as version, canvas_tokens as tokens from sessions where id = $1 and user_id = $2${lock}`,
    [sessionId, userId],
  );
  if (!head) throw notFound("Session", sessionId);
  const known = recent.get(sessionId);
  if (known && known.version === head.version) return { ...known, tokens: head.tokens };
  const [row] = await tx.query<{ canvas: Snapshot | null }>(`select canvas from sessions where id = $1`, [sessionId]);
  const { at, ...snapshot } = row?.canvas ?? { ...EMPTY_CANVAS, at: 0 };
  const since = at === undefined || at >= head.version ? [] : await eventsAfter(tx, sessionId, at, head.version);
  const state = replay(since, snapshot);
  remember(sessionId, head.version, state, since.length);
  return { state, version: head.version, tokens: head.tokens, pending: since.length };
}

async function eventsAfter(tx: Tx, sessionId: string, after: number, through: number): Promise<CanvasEvent[]> {
  const rows = await tx.query<{ payload: unknown }>(
    `select payload from canvas_events where session_id = $1 and id > $2 and id <= $3 order by id`,
    [sessionId, after, through],
  );
  return rows.map((r) => r.payload).filter(isCanvasEvent);
}

/**
 * Appends events at `atSeq` (the session's last message seq) in order, and returns the id of
 * the last one: the canvas's new version.
 */
// One statement for a whole tool round; ordinality keeps the ids in the events' order.
const INSERT_EVENTS = `insert into canvas_events (session_id, user_id, at_seq, payload, source, tool_use_id)
     select $1, $2, $3, e.v -> 'payload', e.v ->> 'source', e.v ->> 'tool_use_id'
     from jsonb_array_elements($4::text::jsonb) with ordinality as e(v, n)
     order by e.n
     returning id`;

const eventsJson = (events: readonly NewCanvasEvent[]) =>
  JSON.stringify(events.map((e) => ({ payload: e.event, source: e.source, tool_use_id: e.toolUseId ?? null })));

export async function insertCanvasEvents(tx: Tx, userId: string, sessionId: string, atSeq: number, events: readonly NewCanvasEvent[]): Promise<number> {
  if (events.length === 0) throw new Error("insertCanvasEvents: no events");
  const [row] = await tx.query<{ id: number }>(`with e as (${INSERT_EVENTS}) select max(id)::float8 as id from e`, [
    sessionId,
    userId,
    atSeq,
    eventsJson(events),
  ]);
  return row.id;
}

/**
 * Appends the events and makes `after` (the canvas they lead to, its section's tokens and
 * the changes it holds beyond the stored snapshot before these) the session's canvas; returns
 * the new version. While the snapshot may lag, that is one statement.
 */
export async function appendCanvasEvents(
  tx: Tx,
  userId: string,
  sessionId: string,
  atSeq: number,
  events: readonly NewCanvasEvent[],
  after: { state: CanvasState; tokens: number; pending: number },
): Promise<number> {
  const pending = after.pending + events.length;
  if (pending >= SNAPSHOT_EVERY) {
    const version = await insertCanvasEvents(tx, userId, sessionId, atSeq, events);
    await storeCanvas(tx, sessionId, { state: after.state, version, tokens: after.tokens });
    return version;
  }
  const [row] = await tx.query<{ version: number }>(
    `with e as (${INSERT_EVENTS})
     update sessions set canvas_version = (select max(id) from e), canvas_tokens = $5 where id = $1
     returning canvas_version::float8 as version`,
    [sessionId, userId, atSeq, eventsJson(events), after.tokens],
  );
  remember(sessionId, row.version, after.state, pending);
  return row.version;
}

/**
 * Makes `c` the session's canvas. `c.pending`: changes it holds beyond the stored snapshot
 * (already written as events); below SNAPSHOT_EVERY only the version and tokens are written.
 */
export async function storeCanvas(tx: Tx, sessionId: string, c: StoredCanvas): Promise<void> {
  const pending = c.pending ?? 0;
  if (pending > 0 && pending < SNAPSHOT_EVERY) {
    await tx.query(`update sessions set canvas_version = $2, canvas_tokens = $3 where id = $1`, [sessionId, c.version, c.tokens]);
  } else {
    const snapshot: Snapshot = { ...c.state, at: c.version };
    await tx.query(`update sessions set canvas = $2::text::jsonb, canvas_version = $3, canvas_tokens = $4 where id = $1`, [
      sessionId,
      JSON.stringify(snapshot),
      c.version,
      c.tokens,
    ]);
  }
  // Should the transaction roll back, the row keeps its old version and the entry never matches.
  remember(sessionId, c.version, c.state, pending >= SNAPSHOT_EVERY ? 0 : pending);
}

export async function storeCanvasTokens(tx: Tx, sessionId: string, tokens: number): Promise<void> {
  await tx.query(`update sessions set canvas_tokens = $2 where id = $1`, [sessionId, tokens]);
}

/**
 * The session's own events up to a point, from the newest base (a 'restore' reset: a fork's
 * first event, or one a checkpoint wrote) at or before it: through event `version` when known,
 * else (a checkpoint saved before the canvas existed) through message `throughSeq`. A fork's
 * first event is its base, so its own events are its whole canvas history.
 */
export async function canvasEventsThrough(tx: Tx, sessionId: string, upTo: { version: number | null; throughSeq: number }): Promise<CanvasEvent[]> {
  const bound = upTo.version === null ? "at_seq <= $2" : "id <= $2";
  const rows = await tx.query<{ payload: unknown }>(
    `select payload from canvas_events where session_id = $1 and ${bound}
       and id >= coalesce((select max(id) from canvas_events where session_id = $1 and ${bound} and source = 'restore'), 0)
     order by id`,
    [sessionId, upTo.version ?? upTo.throughSeq],
  );
  return rows.map((r) => r.payload).filter(isCanvasEvent);
}

/** How many of the session's events a replay of its current canvas reads after its newest base, and that base's id (null: none). */
export async function sinceBase(tx: Tx, sessionId: string): Promise<{ base: number | null; events: number }> {
  const [row] = await tx.query<{ base: number | null; events: number }>(
    `with b as (select max(id) as id from canvas_events where session_id = $1 and source = 'restore')
     select (select id::float8 from b) as base,
       (select count(*)::int from canvas_events where session_id = $1 and id > coalesce((select id from b), 0)) as events`,
    [sessionId],
  );
  return row ?? { base: null, events: 0 };
}

export async function setCheckpointCanvasVersion(tx: Tx, checkpointId: string, version: number): Promise<void> {
  await tx.query(`update session_checkpoints set canvas_version = $2 where id = $1`, [checkpointId, version]);
}

/** The user's own changes (source 'user') made at or after message `atSeq`, oldest first. */
export async function userEventsSince(tx: Tx, sessionId: string, atSeq: number): Promise<CanvasEvent[]> {
  const rows = await tx.query<{ payload: unknown }>(
    `select payload from canvas_events where session_id = $1 and source = 'user' and at_seq >= $2 order by id`,
    [sessionId, atSeq],
  );
  return rows.map((r) => r.payload).filter(isCanvasEvent);
}
