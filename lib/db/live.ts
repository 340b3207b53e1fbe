// Live sessions, the database's side (docs/architecture.md#live-sessions): one LISTEN per app
// instance on the channel the triggers of 20261128000030_live_sessions.sql announce changes on,
// handed to this instance's subscribers of each session; and the announcement of a reply's text
// as it streams, which the database does not store until the reply's row is saved.
import "server-only";
import { z } from "zod";
import { log } from "@/lib/log";
import { getDb, type Database, type Tx } from "./index";

export const LIVE_CHANNEL = "tk_session";
/** NOTIFY refuses payloads of 8000 bytes or more; JSON can escape a character to 6 bytes. */
export const DELTA_CHARS = 1000;

const uuid = z.string().uuid();
const payload = z.discriminatedUnion("k", [
  z.object({
    k: z.enum(["messages", "session", "compactions", "checkpoints", "canvas"]),
    s: uuid,
    u: uuid,
    n: z.number().int(),
    f: z.number().int().nullable().optional(),
  }),
  z.object({ k: z.literal("delta"), s: uuid, u: uuid, m: uuid, o: z.number().int().min(0), t: z.string() }),
]);
type Payload = z.infer<typeof payload>;

export type LiveChange = Extract<Payload, { k: Exclude<Payload["k"], "delta"> }>;
export type LiveDelta = Extract<Payload, { k: "delta" }>;
/** What a subscriber hears: a change, a reply's text, or "listening restarted: something may have been missed". */
export type LiveNotice = LiveChange | LiveDelta | { k: "resync" };
type Listener = (notice: LiveNotice) => void;

interface Hub {
  ready: Promise<boolean>;
  dispatch(raw: string): void;
  subscribers: Map<string, Set<Listener>>;
}
// By database (tests swap it), on globalThis so that every module graph of the process shares one LISTEN.
const hubs = ((globalThis as { __threadkeeperLive?: WeakMap<Database, Hub> }).__threadkeeperLive ??= new WeakMap());

function hubOf(db: Database): Hub {
  let hub = hubs.get(db);
  if (hub) return hub;
  const subscribers = new Map<string, Set<Listener>>();
  let listening = false;
  const dispatch = (raw: string) => {
    let parsed: Payload;
    try {
      parsed = payload.parse(JSON.parse(raw));
    } catch {
      return; // Someone else's NOTIFY on our channel, or a newer instance's kind: nothing to say.
    }
    for (const fn of subscribers.get(parsed.s) ?? []) fn(parsed);
  };
  const restarted = () => {
    if (listening) for (const set of subscribers.values()) for (const fn of set) fn({ k: "resync" });
    listening = true;
  };
  const ready = db.listen
    ? db.listen(LIVE_CHANNEL, dispatch, restarted).then(
        () => true,
        (err: unknown) => {
          log.error("[threadkeeper] live sessions: LISTEN failed; open tabs will not update", err);
          hubs.delete(db); // the next subscriber tries again
          return false;
        },
      )
    : Promise.resolve(false);
  hub = { ready, subscribers, dispatch };
  hubs.set(db, hub);
  return hub;
}

/**
 * Hands `fn` every notice about the session from now on. Resolves once this instance listens
 * (false: it cannot, and nothing will be heard); returns how to stop.
 */
export async function subscribe(sessionId: string, fn: Listener): Promise<{ listening: boolean; stop: () => void }> {
  const hub = hubOf(await getDb());
  let set = hub.subscribers.get(sessionId);
  if (!set) hub.subscribers.set(sessionId, (set = new Set()));
  set.add(fn);
  const listening = await hub.ready;
  return {
    listening,
    stop: () => {
      const current = hub.subscribers.get(sessionId);
      current?.delete(fn);
      if (current?.size === 0) hub.subscribers.delete(sessionId);
    },
  };
}

/** The session's event number now, or null when it is not the user's. */
export async function eventSeq(tx: Tx, userId: string, sessionId: string): Promise<number | null> {
  const rows = await tx.query<{ event_seq: string | number }>("select event_seq from sessions where id = $1 and user_id = $2", [
    sessionId,
    userId,
  ]);
  return rows.length ? Number(rows[0].event_seq) : null;
}

/**
 * Announces text a streaming reply grew by, at `offset` in its text, in payloads NOTIFY accepts.
 * One transaction of its own on PostgreSQL (nothing is stored); none on PGlite.
 */
export async function publishDelta(userId: string, sessionId: string, messageId: string, offset: number, text: string): Promise<void> {
  const payloads: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + DELTA_CHARS);
    // Never split a surrogate pair between two payloads.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
    payloads.push(JSON.stringify({ k: "delta", s: sessionId, u: userId, m: messageId, o: offset + at, t: text.slice(at, end) }));
    at = end;
  }
  if (payloads.length === 0) return;
  const db = await getDb();
  // Embedded, every subscriber is in this process: no database work at all.
  if (db.kind === "pglite") {
    for (const p of payloads) hubOf(db).dispatch(p);
    return;
  }
  await db.transaction(async (tx) => {
    for (const p of payloads) await tx.query(`select pg_notify('${LIVE_CHANNEL}', $1)`, [p]);
  });
}
