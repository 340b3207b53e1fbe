// A session's live stream (GET /api/session/{id}/events, docs/architecture.md#live-sessions):
// what this instance hears about the session (lib/db/live.ts) as Server-Sent Events, from the
// event number the client's view is from.
import "server-only";
import { SSE_HEADERS } from "./sse";
import type { LiveEvent } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { eventSeq, subscribe, type LiveNotice } from "@/lib/db/live";
import { notFound } from "@/lib/errors";
import { isShuttingDown } from "@/lib/shutdown";

/** A comment this often keeps proxies from closing an idle stream, and notices a shutdown. */
const KEEPALIVE_MS = 15_000;
/** What EventSource waits before reconnecting (its default is about 3 s). */
const RETRY_MS = 1_000;

/** The client's cursor: Last-Event-ID (a reconnecting EventSource sends it) wins over `?after=`. */
export function liveCursor(req: Request, after: number | undefined): number | undefined {
  const header = req.headers.get("last-event-id");
  if (header !== null && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return after;
}

function frame(e: LiveEvent, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * Subscribes before reading the session's number, so a change committed in between is heard
 * (and skipped by its number if the read already counted it), never missed. A notice about
 * someone else's session never passes: the route checked the owner, and each notice names its owner.
 */
export async function liveResponse(userId: string, sessionId: string, after: number | undefined, signal: AbortSignal): Promise<Response> {
  const pending: LiveNotice[] = [];
  let deliver: ((n: LiveNotice) => void) | null = null;
  const sub = await subscribe(sessionId, (n) => (deliver ? deliver(n) : pending.push(n)));
  let seq: number | null;
  try {
    seq = await withUser(userId, (tx) => eventSeq(tx, userId, sessionId));
  } catch (err) {
    sub.stop();
    throw err;
  }
  if (seq === null) {
    sub.stop();
    throw notFound("Session", sessionId);
  }
  let last = seq;
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        sub.stop();
        if (timer) clearInterval(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const hear = (n: LiveNotice) => {
        if (n.k === "resync") {
          // This instance stopped listening for a while: the client reads everything again.
          write(frame({ event: "sync", data: { seq: last } }, last));
          return;
        }
        if (n.u !== userId) return;
        if (n.k === "delta") {
          write(frame({ event: "delta", data: { message_id: n.m, offset: n.o, text: n.t } }));
          return;
        }
        // A number already counted (heard while the stream opened) or out of order is not news.
        if (n.n <= last) return;
        last = n.n;
        const data = { seq: n.n };
        write(frame(n.k === "messages" ? { event: "messages", data: { ...data, from_seq: n.f ?? 1 } } : { event: n.k, data }, n.n));
      };
      const caughtUp = after !== undefined && after === seq;
      // The reconnection delay rides on the first event: a frame of its own reads as an event without a name.
      write(`retry: ${RETRY_MS}\n${frame(caughtUp ? { event: "ready", data: { seq } } : { event: "sync", data: { seq } }, seq)}`);
      if (!sub.listening) write(": live updates are unavailable on this server\n\n");
      deliver = hear;
      for (const n of pending.splice(0)) hear(n);
      timer = setInterval(() => (isShuttingDown() ? close() : write(": keep-alive\n\n")), KEEPALIVE_MS);
      signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      closed = true;
      sub.stop();
      if (timer) clearInterval(timer);
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
