import "server-only";
import { withUser } from "@/lib/db";
import { flushStreaming } from "@/lib/db/messages";
import { log } from "@/lib/log";
import { renewLease } from "@/lib/operations/lease";
import { stopRequested } from "@/lib/db/sessions";
import type { TurnHandle } from "./turn-handle";

const FLUSH_INTERVAL_MS = 1_000;

export interface StreamState {
  id: string | null;
  text: string;
  dirty: boolean;
}

/**
 * Saves the partial reply at least every second, so a crash loses at most about a second of
 * it, keeps the turn lease alive meanwhile, and notices a stop asked for on another instance.
 * Writes are chained, never concurrent.
 */
export function startFlusher(h: TurnHandle, stream: StreamState) {
  let chain: Promise<void> = Promise.resolve();
  const tick = () => {
    chain = chain
      .then(() =>
        withUser(h.userId, async (tx) => {
          if (stream.id && stream.dirty) {
            stream.dirty = false;
            await flushStreaming(tx, stream.id, [{ type: "text", text: stream.text }], stream.text);
          }
          await renewLease(tx, h.sessionId, h.leaseId);
          if (!h.stop.signal.aborted && (await stopRequested(tx, h.sessionId))) h.stop.abort();
        }),
      )
      .catch((e: unknown) => log.error("[threadkeeper] flush failed; retrying next second", e));
  };
  const timer = setInterval(tick, FLUSH_INTERVAL_MS);
  return {
    /** Waits for a flush in flight, so the final write cannot be overtaken by it. */
    settle: () => chain,
    stop: async () => {
      clearInterval(timer);
      await chain;
    },
  };
}
