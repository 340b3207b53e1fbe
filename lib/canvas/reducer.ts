// The canvas as a fold over its events: the server applies each event to the stored snapshot
// (and replays them to rebuild the canvas at a checkpoint or for a fork), the browser applies
// the same events as they stream in. Pure; never mutates its input.
import {
  EMPTY_CANVAS,
  LAYOUTS,
  MAX_ELEMENTS,
  parseElement,
  type CanvasElement,
  type CanvasLayout,
  type CanvasState,
  type ConfirmationElement,
} from "@/lib/contract/canvas-elements";
import type { CanvasEvent } from "@/lib/contract/canvas";

export type CanvasOp = CanvasEvent["op"];
export const CANVAS_OPS = ["add", "update", "remove", "clear", "layout", "choose", "reset"] as const satisfies readonly CanvasOp[];

/** The element an event is about (added, changed, removed or answered); null for the whole canvas. */
export function targetId(event: CanvasEvent): string | null {
  return event.op === "add" ? event.element.id : "id" in event ? event.id : null;
}

export type Applied = { ok: true; state: CanvasState } | { ok: false; error: string };

const unknownId = (id: string): Applied => ({ ok: false, error: `No element with id "${id}" is on the canvas.` });

export function applyEvent(state: CanvasState, event: CanvasEvent): Applied {
  switch (event.op) {
    case "add": {
      const i = state.elements.findIndex((e) => e.id === event.element.id);
      if (i >= 0) return { ok: true, state: { ...state, elements: replaceAt(state.elements, i, event.element) } };
      if (state.elements.length >= MAX_ELEMENTS) {
        return { ok: false, error: `The canvas is full (${MAX_ELEMENTS} elements): remove some or clear it first.` };
      }
      return { ok: true, state: { ...state, elements: [...state.elements, event.element] } };
    }
    case "update": {
      const i = state.elements.findIndex((e) => e.id === event.id);
      if (i < 0) return unknownId(event.id);
      const current = state.elements[i] as CanvasElement;
      // id and type are what an update cannot change: a different type is a new element.
      const { id: _id, type: _type, ...fields } = event.fields;
      const next = parseElement({ ...current, ...fields, id: current.id, type: current.type });
      if (!next.ok) return { ok: false, error: `Update of "${event.id}" (${current.type}) is invalid: ${next.error}` };
      return { ok: true, state: { ...state, elements: replaceAt(state.elements, i, next.element) } };
    }
    case "remove": {
      const i = state.elements.findIndex((e) => e.id === event.id);
      if (i < 0) return unknownId(event.id);
      return { ok: true, state: { ...state, elements: state.elements.filter((_, j) => j !== i) } };
    }
    case "clear":
      return { ok: true, state: { ...state, elements: [] } };
    case "layout":
      if (!(LAYOUTS as readonly string[]).includes(event.layout)) return { ok: false, error: `Unknown layout "${event.layout}".` };
      return { ok: true, state: { ...state, layout: event.layout } };
    case "choose": {
      const i = state.elements.findIndex((e) => e.id === event.id);
      if (i < 0) return unknownId(event.id);
      const el = state.elements[i] as CanvasElement;
      if (el.type !== "confirmation") return { ok: false, error: `"${event.id}" is a ${el.type}, not a confirmation.` };
      if (!el.options.includes(event.choice)) return { ok: false, error: `"${event.choice}" is not one of ${el.options.join(", ")}.` };
      const chosen: ConfirmationElement = { ...el, chosen: event.choice };
      return { ok: true, state: { ...state, elements: replaceAt(state.elements, i, chosen) } };
    }
    case "reset":
      return resetTo(event.state);
  }
}

/**
 * A reset's state is checked element by element like any other input (it arrives as jsonb or
 * over the wire); one bad element refuses the whole reset rather than half a canvas.
 */
function resetTo(raw: unknown): Applied {
  if (typeof raw !== "object" || raw === null) return { ok: false, error: "A reset needs a canvas state." };
  const { layout, elements } = raw as { layout?: unknown; elements?: unknown };
  if (!(LAYOUTS as readonly unknown[]).includes(layout)) return { ok: false, error: `Unknown layout "${String(layout)}".` };
  if (!Array.isArray(elements) || elements.length > MAX_ELEMENTS) return { ok: false, error: `A reset holds at most ${MAX_ELEMENTS} elements.` };
  const out: CanvasElement[] = [];
  const ids = new Set<string>();
  for (const e of elements) {
    const p = parseElement(e);
    if (!p.ok) return { ok: false, error: `Reset element ${out.length}: ${p.error}` };
    if (ids.has(p.element.id)) return { ok: false, error: `Reset has "${p.element.id}" twice.` };
    ids.add(p.element.id);
    out.push(p.element);
  }
  return { ok: true, state: { layout: layout as CanvasLayout, elements: out } };
}

/**
 * Replays events from the empty canvas. Events that failed when they happened were never
 * stored, so a stored history replays cleanly; one that no longer applies is skipped rather
 * than losing everything after it.
 */
export function replay(events: Iterable<CanvasEvent>, from: CanvasState = EMPTY_CANVAS): CanvasState {
  let state = from;
  for (const e of events) {
    const r = applyEvent(state, e);
    if (r.ok) state = r.state;
  }
  return state;
}

function replaceAt<T>(xs: readonly T[], i: number, x: T): T[] {
  const out = xs.slice();
  out[i] = x;
  return out;
}

/** Whether a stored value is an event this code understands (rows are jsonb; the browser gets them over SSE). */
export function isCanvasEvent(v: unknown): v is CanvasEvent {
  return typeof v === "object" && v !== null && (CANVAS_OPS as readonly unknown[]).includes((v as { op?: unknown }).op);
}
