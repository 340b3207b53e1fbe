// What can be on the canvas: one zod schema per element type. Claude's tool input is checked
// against these (lib/canvas/tools.ts), the reducer re-checks an update's result against them,
// and the browser renders exactly these shapes. Pure: imported by server and browser alike.
import { z } from "zod";

/** Most elements a canvas holds; adding beyond it is an error Claude can read. */
export const MAX_ELEMENTS = 1_000;
export const MAX_TITLE = 200;
export const MAX_BODY = 20_000;
export const MAX_CHART_POINTS = 500;
export const MAX_CHART_SERIES = 8;
export const MAX_TABLE_ROWS = 500;
export const MAX_TABLE_COLUMNS = 20;
export const MAX_CELL = 500;
export const MAX_OPTIONS = 6;

/** Claude's ids are short, readable slugs ("weather-today"); they are how it refers to an element later. */
export const elementId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "letters, digits and _ . : - only, starting with a letter or digit");

const title = z.string().trim().min(1).max(MAX_TITLE);
const body = z.string().max(MAX_BODY);

export const cardFields = z.object({
  title,
  /** Markdown. */
  body: body.optional(),
  subtitle: z.string().max(MAX_TITLE).optional(),
  footer: z.string().max(MAX_TITLE).optional(),
});

export const textFields = z.object({
  title: title.optional(),
  /** Markdown. */
  content: body.min(1),
});

const chartValue = z.union([z.number().finite(), z.string().max(100), z.null()]);
export const CHART_KINDS = ["line", "bar", "area", "pie"] as const;

export const chartFields = z
  .object({
    title: title.optional(),
    chart_type: z.enum(CHART_KINDS),
    /** Rows like `{ "day": "Mon", "high": 21, "low": 12 }`. */
    data: z.array(z.record(z.string().max(64), chartValue)).min(1).max(MAX_CHART_POINTS),
    /** The category (x axis, or pie slice names). */
    x_key: z.string().min(1).max(64),
    /** The numeric series (y values, or the pie's one value). */
    y_keys: z.array(z.string().min(1).max(64)).min(1).max(MAX_CHART_SERIES),
    unit: z.string().max(20).optional(),
  })
  .superRefine((c, ctx) => {
    const keys = [c.x_key, ...c.y_keys];
    c.data.forEach((row, i) => {
      for (const k of keys) {
        if (!(k in row)) ctx.addIssue({ code: "custom", path: ["data", i], message: `row has no "${k}"` });
      }
      for (const k of c.y_keys) {
        const v = row[k];
        if (v !== undefined && v !== null && typeof v !== "number") {
          ctx.addIssue({ code: "custom", path: ["data", i, k], message: `"${k}" is a series: expected a number or null` });
        }
      }
    });
    if (c.chart_type === "pie" && c.y_keys.length !== 1) {
      ctx.addIssue({ code: "custom", path: ["y_keys"], message: "a pie chart has exactly one value series" });
    }
  });

const cell = z.union([z.string().max(MAX_CELL), z.number().finite(), z.boolean(), z.null()]);
export const tableFields = z
  .object({
    title: title.optional(),
    columns: z.array(z.string().min(1).max(100)).min(1).max(MAX_TABLE_COLUMNS),
    rows: z.array(z.array(cell)).max(MAX_TABLE_ROWS),
  })
  .superRefine((t, ctx) => {
    t.rows.forEach((r, i) => {
      if (r.length !== t.columns.length) {
        ctx.addIssue({ code: "custom", path: ["rows", i], message: `has ${r.length} cells for ${t.columns.length} columns` });
      }
    });
  });

export const MEDIA_KINDS = ["image", "audio", "video"] as const;
/** https only: the page never loads plain-http or data: media (mixed content, and no smuggling through data URLs). */
export const httpsUrl = z
  .string()
  .max(2_000)
  .refine((u) => {
    try {
      const url = new URL(u);
      return url.protocol === "https:" && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  }, "an https URL without credentials");

export const mediaFields = z.object({
  title: title.optional(),
  media_type: z.enum(MEDIA_KINDS),
  url: httpsUrl,
  /** What the media shows, for screen readers and for Claude's view of the canvas. */
  alt: z.string().max(500).optional(),
});

export const confirmationFields = z.object({
  title,
  message: z.string().max(2_000).optional(),
  /** The buttons; the user's choice comes back as their next message. */
  options: z.array(z.string().trim().min(1).max(60)).min(1).max(MAX_OPTIONS).default(["Yes", "No"]),
});

export const ELEMENT_TYPES = ["card", "text", "chart", "table", "media", "confirmation"] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** The fields of each type, without id and type: what a tool's input holds and an update patches. */
export const FIELDS = {
  card: cardFields,
  text: textFields,
  chart: chartFields,
  table: tableFields,
  media: mediaFields,
  confirmation: confirmationFields,
} as const satisfies Record<ElementType, z.ZodType>;

type Fields<T extends ElementType> = z.output<(typeof FIELDS)[T]>;
interface Base<T extends ElementType> {
  id: string;
  type: T;
}
export type CardElement = Base<"card"> & Fields<"card">;
export type TextElement = Base<"text"> & Fields<"text">;
export type ChartElement = Base<"chart"> & Fields<"chart">;
export type TableElement = Base<"table"> & Fields<"table">;
export type MediaElement = Base<"media"> & Fields<"media">;
/** `chosen`: the option the user picked, once they have. */
export type ConfirmationElement = Base<"confirmation"> & Fields<"confirmation"> & { chosen?: string };
export type CanvasElement = CardElement | TextElement | ChartElement | TableElement | MediaElement | ConfirmationElement;

export const LAYOUTS = ["grid", "list"] as const;
export type CanvasLayout = (typeof LAYOUTS)[number];

/** The canvas at one point of a session's history. Elements in the order they were added. */
export interface CanvasState {
  layout: CanvasLayout;
  elements: CanvasElement[];
}

export const EMPTY_CANVAS: CanvasState = { layout: "grid", elements: [] };

/** Checks a whole element (as stored, or as an update leaves it); the error names the field. */
export function parseElement(raw: unknown): { ok: true; element: CanvasElement } | { ok: false; error: string } {
  if (typeof raw !== "object" || raw === null) return { ok: false, error: "an element must be an object" };
  const { id, type, chosen, ...fields } = raw as Record<string, unknown>;
  const idOk = elementId.safeParse(id);
  if (!idOk.success) return { ok: false, error: `id: ${idOk.error.issues[0]?.message ?? "invalid"}` };
  if (!(ELEMENT_TYPES as readonly unknown[]).includes(type)) return { ok: false, error: `type: one of ${ELEMENT_TYPES.join(", ")}` };
  const t = type as ElementType;
  const parsed = FIELDS[t].safeParse(fields);
  if (!parsed.success) return { ok: false, error: issuesText(parsed.error) };
  const element = { id: idOk.data, type: t, ...parsed.data } as CanvasElement;
  if (t === "confirmation" && typeof chosen === "string") (element as ConfirmationElement).chosen = chosen;
  return { ok: true, element };
}

/** zod issues as one line Claude (or an API client) can act on: "data.3.high: expected a number". */
export function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
}
