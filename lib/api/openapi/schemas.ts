// zod -> JSON Schema for the document: each conversion's named shapes ($defs) move to
// components/schemas, and what zod writes that helps nobody reading the document goes.
import "server-only";
import { z } from "zod";
import { components } from "@/lib/contract/meta";
import type { JsonSchema } from "./types";

const COMPONENT_REF = "#/components/schemas/";

/** Formats whose meaning the specification fixes; zod's regex for them only repeats it. */
const SELF_DESCRIBING_FORMATS = new Set(["uuid", "date-time", "email"]);

export class SchemaCollector {
  private readonly defs = new Map<string, JsonSchema>();

  /** A request shape (io "input": defaults make fields optional, coercions take strings) or a response shape. */
  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      metadata: components,
      unrepresentable: ({ zodSchema }) => (zodSchema._zod.def.type === "date" ? DATE_STRING : "throw"),
      override: ({ jsonSchema }) => tidy(jsonSchema),
    });
    const { $schema: _dialect, $defs, ...root } = json;
    for (const [id, def] of Object.entries($defs ?? {})) this.keep(id, toComponentRefs(def));
    return toComponentRefs(root);
  }

  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.defs].sort(([a], [b]) => a.localeCompare(b)));
  }

  private keep(id: string, def: JsonSchema): void {
    const known = this.defs.get(id);
    // Two different shapes under one name would make every $ref to it ambiguous.
    if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`Two different schemas are named ${id}`);
    this.defs.set(id, def);
  }
}

export const componentRef = (id: string): JsonSchema => ({ $ref: COMPONENT_REF + id });

/** A `z.coerce.date()` field arrives as text; the server reads it with `new Date(...)`. */
const DATE_STRING: JsonSchema = {
  type: "string",
  anyOf: [{ format: "date-time" }, { format: "date" }],
  description: "An ISO 8601 date-time, or a date (midnight UTC).",
};

function tidy(s: JsonSchema): void {
  if (typeof s.format === "string" && SELF_DESCRIBING_FORMATS.has(s.format)) delete s.pattern;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
}

function toComponentRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(toComponentRefs) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? COMPONENT_REF + v.slice("#/$defs/".length) : toComponentRefs(v);
  }
  return out as T;
}
