// The canvas as the API and the event stream carry it, shared by server and browser.
import type { CanvasLayout, CanvasElement } from "./elements";
import type { CanvasEvent } from "./reducer";
import type { CanvasEffect } from "./tools";

/** `GET /api/session/{id}/canvas` and the answers of the user's canvas changes. */
export interface CanvasJson {
  layout: CanvasLayout;
  elements: CanvasElement[];
  /** Id of the newest event applied (0: never changed): a client holding an older one refetches. */
  version: number;
}

/**
 * The send stream's `canvas` event, after the tool results that made the changes are saved:
 * the events to apply in order (the same reducer the server used), the screen-only effects,
 * and the version the canvas is at afterwards.
 */
export interface CanvasStreamEvent {
  events: CanvasEvent[];
  effects: CanvasEffect[];
  version: number;
}
