// Keeping the browser's copy of a canvas in step with the server's: stream events are applied
// with the server's own reducer, and anything that does not fit (no copy yet, an event that
// does not apply) asks for a fresh read instead of guessing. Pure.
import { applyEvent } from "@/lib/canvas/reducer";
import type { CanvasJson, CanvasStreamEvent } from "@/lib/contract";

export type StreamOutcome =
  /** The copy with the events applied. */
  | { kind: "applied"; canvas: CanvasJson }
  /** The copy already holds these events (a read answered after they were saved). */
  | { kind: "stale" }
  /** The copy cannot take these events: read the canvas again. */
  | { kind: "refetch" };

export function applyStream(current: CanvasJson | null, stream: CanvasStreamEvent): StreamOutcome {
  if (current === null) return { kind: "refetch" };
  if (stream.version <= current.version) return { kind: "stale" };
  let state = { layout: current.layout, elements: current.elements };
  for (const event of stream.events) {
    const r = applyEvent(state, event);
    // The server applied it to its snapshot, so a failure here means this copy missed a change.
    if (!r.ok) return { kind: "refetch" };
    state = r.state;
  }
  return { kind: "applied", canvas: { ...state, version: stream.version } };
}

/**
 * Which of two copies to keep when a read (or a change's answer) arrives: the newer one. A read
 * that started before a streamed event and answered after it must not undo that event.
 */
export function newer(current: CanvasJson | null, incoming: CanvasJson): CanvasJson {
  return current !== null && current.version > incoming.version ? current : incoming;
}
