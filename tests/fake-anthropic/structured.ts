/**
 * Structured output: `output_config.format` (or the beta's top-level `output_format`) of type
 * `json_schema` makes the reply's text a JSON value satisfying the schema. The value is built
 * from the schema alone (deterministic, `subject` filling free strings), covering what clients'
 * schema generators (zod, pydantic) emit: object/properties/required, array (minItems), string
 * (enum, const, format), number/integer (minimum), boolean, null, anyOf/oneOf, nullable types,
 * `$ref` into `$defs`/`definitions`, and bounds an SDK helper wrote into a description.
 */
import { invalid } from "./errors";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Schema = Record<string, unknown>;

/** The schema of the request's output format, or null when it asks for none; 400 when malformed. */
export function outputSchema(body: Record<string, unknown>): Schema | null {
  const config = body.output_config;
  if (config !== undefined && config !== null) {
    if (!isRecord(config)) throw invalid("output_config: Input should be a valid dictionary");
    const effort = config.effort;
    if (effort !== undefined && effort !== null && !["low", "medium", "high", "xhigh", "max"].includes(String(effort))) {
      throw invalid("output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'");
    }
    const schema = formatSchema(config.format, "output_config.format");
    if (schema) return schema;
  }
  return formatSchema(body.output_format, "output_format");
}

function formatSchema(format: unknown, path: string): Schema | null {
  if (format === undefined || format === null) return null;
  if (!isRecord(format) || format.type !== "json_schema") throw invalid(`${path}.type: Input should be 'json_schema'`);
  if (!isRecord(format.schema)) throw invalid(`${path}.schema: Field required`);
  return format.schema;
}

const FORMATS: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00",
  email: "user@example.com",
  uri: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
};

/**
 * Constraints the strict JSON-schema subset cannot carry, which SDK helpers (zodOutputFormat)
 * move into the description as `{minimum: 5, maxLength: 9}`; a model reads them there.
 */
function descriptionHints(node: Schema): Schema {
  const match = typeof node.description === "string" ? /\{([^{}]*)\}/.exec(node.description) : null;
  if (!match) return node;
  const hints: Schema = {};
  for (const pair of match[1].split(",")) {
    const [key, value] = pair.split(":").map((p) => p.trim());
    if (key && value !== undefined && value !== "" && Number.isFinite(Number(value))) hints[key] = Number(value);
  }
  return { ...hints, ...node };
}

/** A value that satisfies `schema`; `subject` is the text free-form strings are made from. */
export function valueForSchema(schema: Schema, subject: string): unknown {
  const root = schema;
  const build = (raw: unknown, name: string, depth: number): unknown => {
    if (!isRecord(raw) || depth > 32) return null;
    const node = descriptionHints(raw);
    if (typeof node.$ref === "string") {
      const target = node.$ref.replace(/^#\//, "").split("/").reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), root);
      return build(target, name, depth + 1);
    }
    if ("const" in node) return node.const;
    if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
    const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
    if (union) {
      const choice = union.find((s) => !(isRecord(s) && s.type === "null")) ?? union[0];
      return build(choice, name, depth + 1);
    }
    if (Array.isArray(node.allOf) && node.allOf.length > 0) {
      return build(Object.assign({}, ...node.allOf.filter(isRecord)), name, depth + 1);
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const type = types.find((t) => t !== "null") ?? types[0] ?? (isRecord(node.properties) ? "object" : undefined);
    switch (type) {
      case "object": {
        const properties = isRecord(node.properties) ? node.properties : {};
        const out: Record<string, unknown> = {};
        // Every property, required or not: a fuller object exercises more of the client's parsing.
        for (const [key, sub] of Object.entries(properties)) out[key] = build(sub, key, depth + 1);
        return out;
      }
      case "array": {
        const count = Math.max(1, typeof node.minItems === "number" ? node.minItems : 1);
        const max = typeof node.maxItems === "number" ? node.maxItems : count;
        return Array.from({ length: Math.min(count, max) }, () => build(node.items, name, depth + 1));
      }
      case "string": {
        if (typeof node.format === "string" && FORMATS[node.format]) return FORMATS[node.format];
        const min = typeof node.minLength === "number" ? node.minLength : 0;
        const max = typeof node.maxLength === "number" ? node.maxLength : Infinity;
        let text = subject ? `${name}: ${subject}` : name;
        if (text.length < min) text = text.padEnd(min, ".");
        return text.slice(0, max);
      }
      case "integer":
      case "number": {
        const min = typeof node.minimum === "number" ? node.minimum : typeof node.exclusiveMinimum === "number" ? node.exclusiveMinimum + 1 : 0;
        const max = typeof node.maximum === "number" ? node.maximum : Infinity;
        const value = Math.min(type === "integer" ? Math.ceil(min) : min, max);
        return value;
      }
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return subject;
    }
  };
  return build(schema, "value", 0);
}
