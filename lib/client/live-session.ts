// The open session's live stream (GET /api/session/{id}/events, docs/architecture.md#live-sessions):
// one EventSource per open session. It reconnects by itself with the last event's id (the server
// then says whether anything was missed); when the server refuses or goes away for good (a 503 while
// an instance restarts), it is opened again after a pause, from the last event number heard.
import { liveEvent, type LiveEvent } from "@/lib/contract/live";

const REOPEN_MS = 2_000;
const NAMES: LiveEvent["event"][] = ["ready", "sync", "messages", "session", "compactions", "checkpoints", "canvas", "delta"];

export interface LiveConnection {
  close(): void;
}

/** Listens to the session from event number `after` (the page's `event_seq`); `on` gets each event, validated. */
export function connectLive(sessionId: string, after: number, on: (e: LiveEvent) => void): LiveConnection {
  let last = after;
  let source: EventSource | null = null;
  let reopen: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const open = () => {
    if (closed || typeof EventSource === "undefined") return;
    const es = new EventSource(`/api/session/${encodeURIComponent(sessionId)}/events?after=${last}`);
    source = es;
    for (const name of NAMES) {
      es.addEventListener(name, (raw) => {
        const msg = raw as MessageEvent<string>;
        let data: unknown;
        try {
          data = JSON.parse(msg.data);
        } catch {
          return;
        }
        const parsed = liveEvent.safeParse({ event: name, data });
        if (!parsed.success || closed) return;
        if (msg.lastEventId && /^\d+$/.test(msg.lastEventId)) last = Number(msg.lastEventId);
        on(parsed.data);
      });
    }
    es.onerror = () => {
      // CONNECTING: the browser retries by itself with Last-Event-ID. CLOSED: it gave up.
      if (es.readyState !== EventSource.CLOSED || closed) return;
      source = null;
      reopen = setTimeout(open, REOPEN_MS);
    };
  };
  open();

  return {
    close() {
      closed = true;
      if (reopen !== null) clearTimeout(reopen);
      source?.close();
      source = null;
    },
  };
}
