// What the open session's live stream (lib/client/live-session.ts) changes in this tab: each
// event says what to read again, and the stores read it. A send of this tab is not disturbed:
// its own stream already tells it everything, and it reads the newest page when it ends.
import type { LiveEvent } from "@/lib/contract";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { connectLive, type LiveConnection } from "@/lib/client/live-session";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

export interface LiveView {
  isOpen(sessionId: string): boolean;
  /** A send of this tab holds the composer. */
  holds(sessionId: string): boolean;
  refreshTail(sessionId: string): Promise<void>;
  loadHistory(sessionId: string): Promise<void>;
  delta(d: Extract<LiveEvent, { event: "delta" }>["data"]): void;
}

export interface LiveSync {
  /** Listens to the session from event number `after` (closing what listened before). */
  start(sessionId: string, after: number): void;
  stop(): void;
}

export function createLiveSync(view: LiveView): LiveSync {
  let connection: LiveConnection | null = null;
  // Events come in bursts (a message, its reply's row, the title): one page read at a time,
  // and one more after it if anything changed meanwhile.
  let reading = false;
  let again = false;
  async function readMessages(sessionId: string): Promise<void> {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        await view.refreshTail(sessionId);
      } while (again && view.isOpen(sessionId));
    } finally {
      reading = false;
    }
  }

  function hear(sessionId: string, e: LiveEvent): void {
    if (!view.isOpen(sessionId)) return;
    const mine = view.holds(sessionId);
    switch (e.event) {
      case "ready":
        return;
      case "delta":
        view.delta(e.data);
        return;
      case "session":
        void useSessionsStore.getState().refresh(sessionId);
        return;
      case "checkpoints":
        void useCheckpointsStore.getState().refresh(sessionId);
        return;
      case "canvas":
        if (!mine && useCanvasStore.getState().sessionId === sessionId) void useCanvasStore.getState().reload();
        return;
      case "messages":
        if (mine) return;
        void readMessages(sessionId);
        void useStatusStore.getState().load(sessionId);
        return;
      case "compactions":
        void view.loadHistory(sessionId);
        if (mine) return;
        void readMessages(sessionId);
        void useStatusStore.getState().load(sessionId);
        return;
      case "sync":
        void useSessionsStore.getState().refresh(sessionId);
        void useCheckpointsStore.getState().refresh(sessionId);
        void view.loadHistory(sessionId);
        if (mine) return;
        void readMessages(sessionId);
        void useStatusStore.getState().load(sessionId);
        if (useCanvasStore.getState().sessionId === sessionId) void useCanvasStore.getState().reload();
        return;
    }
  }

  const stop = () => {
    connection?.close();
    connection = null;
  };
  return {
    start(sessionId, after) {
      stop();
      connection = connectLive(sessionId, after, (e) => hear(sessionId, e));
    },
    stop,
  };
}
