// The canvas's rows: its events (canvas_events, in the session's history order) and the
// snapshot on the session row that every request reads instead of replaying them.
import { EMPTY_CANVAS, type CanvasState } from "@/lib/canvas/elements";
import { isCanvasEvent, type CanvasEvent } from "@/lib/canvas/reducer";
import { notFound } from "@/lib/errors";
import type { Tx } from "./driver";

export type CanvasSource = "claude" | "user" | "restore";

export interface StoredCanvas {
  state: CanvasState;
  version: number;
  tokens: number;
}

export interface NewCanvasEvent {
  event: CanvasEvent;
  source: CanvasSource;
  toolUseId?: string;
}

/** The session's current canvas; `forUpdate` locks the row so concurrent changes apply in turn. A 404 for someone else's session. */
export async function readCanvas(tx: Tx, userId: string, sessionId: string, forUpdate = false): Promise<StoredCanvas> {
  const [row] = await tx.query<{ canvas: CanvasState | null; version: number; tokens: number }>(
    `select canvas, canvas_version::float8 as version, canvas_tokens as tokens from sessions where id = $1 and user_id = $2${forUpdate ? " for update" : ""}`,
    [sessionId, userId],
  );
  if (!row) throw notFound("Session", sessionId);
  return { state: row.canvas ?? EMPTY_CANVAS, version: row.version, tokens: row.tokens };
}

/**
 * Appends events at `atSeq` (the session's last message seq) in order, and returns the id of
 * the last one: the canvas's new version.
 */
export async function insertCanvasEvents(tx: Tx, userId: string, sessionId: string, atSeq: number, events: readonly NewCanvasEvent[]): Promise<number> {
  if (events.length === 0) throw new Error("insertCanvasEvents: no events");
  // One statement for a whole tool round; ordinality keeps the ids in the events' order.
  const rows = await tx.query<{ id: number }>(
    `insert into canvas_events (session_id, user_id, at_seq, payload, source, tool_use_id)
     select $1, $2, $3, e.v -> 'payload', e.v ->> 'source', e.v ->> 'tool_use_id'
     from jsonb_array_elements($4::text::jsonb) with ordinality as e(v, n)
     order by e.n
     returning id::float8 as id`,
    [
      sessionId,
      userId,
      atSeq,
      JSON.stringify(events.map((e) => ({ payload: e.event, source: e.source, tool_use_id: e.toolUseId ?? null }))),
    ],
  );
  return Math.max(...rows.map((r) => r.id));
}

export async function storeCanvas(tx: Tx, sessionId: string, c: StoredCanvas): Promise<void> {
  await tx.query(`update sessions set canvas = $2::text::jsonb, canvas_version = $3, canvas_tokens = $4 where id = $1`, [
    sessionId,
    JSON.stringify(c.state),
    c.version,
    c.tokens,
  ]);
}

export async function storeCanvasTokens(tx: Tx, sessionId: string, tokens: number): Promise<void> {
  await tx.query(`update sessions set canvas_tokens = $2 where id = $1`, [sessionId, tokens]);
}

/**
 * The session's own events up to a point: through event `version` when known, else (a
 * checkpoint saved before the canvas existed) through message `throughSeq`. A fork's first
 * event is its 'restore' reset, so its own events are its whole canvas history.
 */
export async function canvasEventsThrough(tx: Tx, sessionId: string, upTo: { version: number | null; throughSeq: number }): Promise<CanvasEvent[]> {
  const rows = await tx.query<{ payload: unknown }>(
    upTo.version === null
      ? `select payload from canvas_events where session_id = $1 and at_seq <= $2 order by id`
      : `select payload from canvas_events where session_id = $1 and id <= $2 order by id`,
    [sessionId, upTo.version ?? upTo.throughSeq],
  );
  return rows.map((r) => r.payload).filter(isCanvasEvent);
}

/** The session's last message seq: where a change the user makes now sits in its history. */
export async function lastSeq(tx: Tx, sessionId: string): Promise<number> {
  const [row] = await tx.query<{ seq: number }>(`select next_seq - 1 as seq from sessions where id = $1`, [sessionId]);
  return row?.seq ?? 0;
}
