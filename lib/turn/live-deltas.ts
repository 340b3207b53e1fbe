import "server-only";
import { publishDelta } from "@/lib/db/live";
import { log } from "@/lib/log";
import type { StreamState } from "./flusher";
import type { TurnHandle } from "./turn-handle";

/**
 * How often a streaming reply's new text is announced to the session's other viewers: what
 * arrived meanwhile leaves as one notice, so the work is per interval, never per token.
 */
const LIVE_INTERVAL_MS = 100;

/**
 * Announces the reply's text as it grows (docs/architecture.md#live-sessions), each piece with
 * its offset in the reply, so a viewer appends it exactly once and sees a gap as a gap.
 * Announcements are chained, never concurrent; a failed one is only logged: the viewers' next
 * reading of the saved reply fills the gap.
 */
export function startLiveDeltas(h: TurnHandle, stream: StreamState) {
  let sentId: string | null = null;
  let sentLength = 0;
  let chain: Promise<void> = Promise.resolve();
  const tick = () => {
    const id = stream.id;
    if (!id) return chain;
    if (id !== sentId) {
      sentId = id;
      sentLength = 0;
    }
    if (stream.text.length <= sentLength) return chain;
    const offset = sentLength;
    const text = stream.text.slice(offset);
    sentLength = stream.text.length;
    chain = chain
      .then(() => publishDelta(h.userId, h.sessionId, id, offset, text))
      .catch((e: unknown) => log.error("[threadkeeper] live reply text not announced", e));
    return chain;
  };
  const timer = setInterval(() => void tick(), LIVE_INTERVAL_MS);
  return {
    /** Announces what is left now (the reply's last tokens) and waits for it. */
    flush: () => tick(),
    stop: async () => {
      clearInterval(timer);
      await chain;
    },
  };
}
