// The canvas tools Claude is offered (names from the reference documents) and what a call
// means: an event for the stored canvas, an ephemeral effect for the screen only, or an error
// Claude can read. Definitions are generated from the same zod schemas the input is checked
// with, so the two cannot drift. Pure.
import { z } from "zod";
import { elementId, FIELDS, issuesText, LAYOUTS, type CanvasElement, type ElementType } from "@/lib/contract/canvas-elements";
import { CANVAS_THEMES, NOTIFICATION_LEVELS, type CanvasEffect, type CanvasEvent } from "@/lib/contract/canvas";

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

const notificationInput = z.object({
  message: z.string().trim().min(1).max(500),
  level: z.enum(NOTIFICATION_LEVELS).default("info"),
});
const themeInput = z.object({ theme: z.enum(CANVAS_THEMES) });
const updateInput = z.object({ id: elementId }).catchall(z.unknown());
const removeInput = z.object({ id: elementId });
const modeInput = z.object({ mode: z.enum(["clear", ...LAYOUTS]) });

export type CanvasCall =
  | { kind: "event"; event: CanvasEvent }
  | { kind: "effect"; effect: CanvasEffect }
  | { kind: "error"; error: string };

const SHOW_TOOLS: Record<string, { type: ElementType; description: string }> = {
  canvas_add_card: {
    type: "card",
    description:
      "Put a card on the canvas beside the chat: a title, an optional markdown body, subtitle and footer. Use it for " +
      "something the user should keep in view (a summary, a status, a plan). Give it a short id to change it later.",
  },
  canvas_show_text: {
    type: "text",
    description: "Show a block of markdown text on the canvas (notes, a draft, instructions the user will follow while chatting).",
  },
  canvas_show_chart: {
    type: "chart",
    description:
      'Show a line, bar, area or pie chart. `data` is a list of rows like {"day": "Mon", "high": 21}; `x_key` names the ' +
      "category field and `y_keys` the numeric series (one for a pie).",
  },
  canvas_show_table: {
    type: "table",
    description: "Show a table: column headings and rows of cells (text, numbers, booleans or null), one cell per column.",
  },
  canvas_play_media: {
    type: "media",
    description:
      "Show an image, or a playable audio or video, from an https URL. Describe it in `alt`: the user reads that until they " +
      "choose to load media from the URL's host.",
  },
  canvas_show_confirmation: {
    type: "confirmation",
    description:
      "Ask the user to choose: a title, an optional message and up to 6 buttons (default Yes / No). Their choice arrives " +
      "as their next message. Use it before acting on something they should approve.",
  },
};

export const CANVAS_TOOL_NAMES = [
  ...Object.keys(SHOW_TOOLS),
  "canvas_update_card",
  "canvas_remove_element",
  "canvas_set_mode",
  "canvas_show_notification",
  "canvas_set_theme",
] as const;

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

function withOptionalId(fields: Record<string, unknown>): Record<string, unknown> {
  const properties = (fields.properties ?? {}) as Record<string, unknown>;
  return {
    ...fields,
    properties: {
      id: { ...jsonSchema(elementId), description: "Your id for the element (e.g. weather-today); one is made up when missing. Reusing an id replaces that element." },
      ...properties,
    },
  };
}

/** Every canvas tool's definition, in a stable order (the prompt cache keys on it). */
export const CANVAS_TOOLS: readonly ToolDefinition[] = [
  ...Object.entries(SHOW_TOOLS).map(([name, t]) => ({ name, description: t.description, input_schema: withOptionalId(jsonSchema(FIELDS[t.type])) })),
  {
    name: "canvas_update_card",
    description:
      "Change fields of an element already on the canvas, by id (a card's title or body, a chart's data, a table's rows …). " +
      "Only the fields given change; the element keeps its type.",
    input_schema: {
      type: "object",
      properties: { id: { type: "string", description: "The element's id, as listed in the canvas section of the system prompt." } },
      required: ["id"],
      additionalProperties: true,
    },
  },
  {
    name: "canvas_remove_element",
    description: "Remove one element from the canvas by id.",
    input_schema: jsonSchema(removeInput),
  },
  {
    name: "canvas_set_mode",
    description: "`clear` removes everything from the canvas; `grid` or `list` changes how elements are laid out.",
    input_schema: jsonSchema(modeInput),
  },
  {
    name: "canvas_show_notification",
    description: "Show a short toast notification. It is not kept on the canvas.",
    input_schema: jsonSchema(notificationInput),
  },
  {
    name: "canvas_set_theme",
    description: "Switch the canvas between light and dark for this visit (or back to the user's system setting). Not kept.",
    input_schema: jsonSchema(themeInput),
  },
];

export function isCanvasTool(name: string): boolean {
  return (CANVAS_TOOL_NAMES as readonly string[]).includes(name);
}

const invalid = (name: string, error: z.ZodError): CanvasCall => ({ kind: "error", error: `Invalid input for ${name}: ${issuesText(error)}` });

/** A made-up id for an element Claude did not name: its type and the call's own unique id. */
export function generatedId(type: ElementType, toolUseId: string): string {
  const tail = toolUseId.replace(/[^A-Za-z0-9]/g, "").slice(-8).toLowerCase() || "x";
  return `${type}-${tail}`;
}

/** What a canvas tool call asks for; `toolUseId` names elements Claude left unnamed. */
export function canvasCall(name: string, input: unknown, toolUseId: string): CanvasCall {
  const show = SHOW_TOOLS[name];
  if (show) {
    if (typeof input !== "object" || input === null) return { kind: "error", error: `Invalid input for ${name}: expected an object` };
    const { id, ...fields } = input as Record<string, unknown>;
    const parsedId = id === undefined ? { success: true as const, data: generatedId(show.type, toolUseId) } : elementId.safeParse(id);
    if (!parsedId.success) return invalid(name, parsedId.error);
    const parsed = FIELDS[show.type].safeParse(fields);
    if (!parsed.success) return invalid(name, parsed.error);
    return { kind: "event", event: { op: "add", element: { id: parsedId.data, type: show.type, ...parsed.data } as CanvasElement } };
  }
  switch (name) {
    case "canvas_update_card": {
      const p = updateInput.safeParse(input);
      if (!p.success) return invalid(name, p.error);
      const { id, ...fields } = p.data;
      if (Object.keys(fields).length === 0) return { kind: "error", error: `Invalid input for ${name}: give at least one field to change` };
      return { kind: "event", event: { op: "update", id, fields } };
    }
    case "canvas_remove_element": {
      const p = removeInput.safeParse(input);
      return p.success ? { kind: "event", event: { op: "remove", id: p.data.id } } : invalid(name, p.error);
    }
    case "canvas_set_mode": {
      const p = modeInput.safeParse(input);
      if (!p.success) return invalid(name, p.error);
      return { kind: "event", event: p.data.mode === "clear" ? { op: "clear" } : { op: "layout", layout: p.data.mode } };
    }
    case "canvas_show_notification": {
      const p = notificationInput.safeParse(input);
      return p.success ? { kind: "effect", effect: { kind: "notification", ...p.data } } : invalid(name, p.error);
    }
    case "canvas_set_theme": {
      const p = themeInput.safeParse(input);
      return p.success ? { kind: "effect", effect: { kind: "theme", theme: p.data.theme } } : invalid(name, p.error);
    }
    default:
      return { kind: "error", error: `Unknown canvas tool: ${name}` };
  }
}
