import { z } from "zod";
import { FIELDS, LAYOUTS, type ElementType } from "./canvas-elements";
import { count, described, named } from "./meta";

export const NOTIFICATION_LEVELS = ["info", "success", "warning", "error"] as const;
export const CANVAS_THEMES = ["light", "dark", "system"] as const;

// Each element is its type's fields (the same zod schemas Claude's tool input is checked with) plus id and type.
const element = <T extends ElementType>(type: T) => z.intersection(z.object({ id: z.string(), type: z.literal(type) }), FIELDS[type]);

export const canvasElement = named(
  "CanvasElement",
  z.union([
    element("card"),
    element("text"),
    element("chart"),
    element("table"),
    element("media"),
    z.intersection(
      z.object({ id: z.string(), type: z.literal("confirmation") }),
      z.intersection(FIELDS.confirmation, z.object({ chosen: described(z.string().optional(), "The option the user picked, once they have.") })),
    ),
  ]),
  "One element on the canvas: `id` (Claude's, e.g. weather-today), `type`, and that type's fields.",
);

const layout = z.enum(LAYOUTS);

export const canvasState = z.object({ layout, elements: z.array(canvasElement) });

export const canvas = named(
  "Canvas",
  z.object({
    layout,
    elements: z.array(canvasElement),
    version: described(count(), "Id of the newest change applied (0: never changed); a client holding an older one refetches."),
  }),
  "The canvas beside the chat, elements oldest first.",
);

export const canvasEvent = named(
  "CanvasEvent",
  z.discriminatedUnion("op", [
    z.object({ op: z.literal("add"), element: canvasElement }),
    z.object({ op: z.literal("update"), id: z.string(), fields: z.record(z.string(), z.unknown()) }),
    z.object({ op: z.literal("remove"), id: z.string() }),
    z.object({ op: z.literal("clear") }),
    z.object({ op: z.literal("layout"), layout }),
    z.object({ op: z.literal("choose"), id: z.string(), choice: z.string() }),
    z.object({ op: z.literal("reset"), state: canvasState }),
  ]),
  "One change to the canvas; `add` with an id already there replaces that element in place.",
);

export const canvasEffect = named(
  "CanvasEffect",
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("notification"), message: z.string(), level: z.enum(NOTIFICATION_LEVELS) }),
    z.object({ kind: z.literal("theme"), theme: z.enum(CANVAS_THEMES) }),
  ]),
  "Shown, never kept: a toast, or the canvas's theme for this visit.",
);

export const canvasStreamEvent = named(
  "CanvasStreamEvent",
  z.object({ events: z.array(canvasEvent), effects: z.array(canvasEffect), version: count() }),
  "A send's canvas changes of one tool round, after their tool results were saved: apply `events` in order.",
);

/** One change to the canvas, applied by the same reducer on the server and in the browser. */
export type CanvasEvent = z.infer<typeof canvasEvent>;
/** Shown, never kept: a toast, or the canvas's theme for this visit. */
export type CanvasEffect = z.infer<typeof canvasEffect>;
/** `GET /api/session/{id}/canvas` and the answers of the user's canvas changes. */
export type CanvasJson = z.infer<typeof canvas>;
/** The send stream's `canvas` event: apply `events` in order, show `effects`, then it is at `version`. */
export type CanvasStreamEvent = z.infer<typeof canvasStreamEvent>;
