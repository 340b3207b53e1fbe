// What no request may carry, whatever its endpoint: route() holds every parsed path, query and
// body to it before the endpoint's own schema runs, so no endpoint needs a rule of its own.
// PostgreSQL cannot store a NUL character in text or jsonb, nor jsonb a lone surrogate (half a
// UTF-16 pair, which JSON's \uD800 escapes can spell): either would fail as a 500 deep inside a
// write. And a value nested too deep overflows the stack of whatever recursive code reads it
// next (the schema, JSON.stringify, the tokenizer), so the depth is checked here, without
// recursion, right after JSON.parse, which copes with any depth.

/** The deepest nesting of arrays and objects a request may hold; `{}` is 1 level, `{"a":[]}` 2. */
export const MAX_JSON_DEPTH = 64;

export type InputProblemCode = "nul_character" | "lone_surrogate" | "too_deep";

export interface InputProblem {
  /** Where, as zod names a place: keys and indexes from the root. */
  path: (string | number)[];
  code: InputProblemCode;
  message: string;
}

function messageOf(code: InputProblemCode, maxDepth: number): string {
  if (code === "nul_character") return "contains a NUL character (\\u0000), which cannot be stored";
  if (code === "lone_surrogate") return "contains a lone UTF-16 surrogate (half of a \\uD800-\\uDFFF pair), which is not valid Unicode";
  return `is nested deeper than ${maxDepth} levels of arrays and objects`;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * Text made storable where refusing it would lose more than the change does (a PDF's text, an
 * imported conversation): NULs dropped, lone surrogates replaced by U+FFFD.
 */
export function storableText(s: string): string {
  return s.replace(/\0/g, "").replace(LONE_SURROGATES, "\uFFFD");
}

/** `value` with every string in it, keys included, made storable; the same object when none needed it. Iterative: content may nest deeply. */
export function storableValue<T>(value: T): T {
  if (inputProblem(value, Number.POSITIVE_INFINITY) === null) return value;
  const fix = (v: unknown): unknown => (typeof v === "string" ? storableText(v) : Array.isArray(v) ? [...v] : typeof v === "object" && v !== null ? { ...v } : v);
  const root = fix(value);
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push((node[i] = fix(node[i])));
    } else if (typeof node === "object" && node !== null) {
      const o = node as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        const v = fix(o[key]);
        const k = storableText(key);
        if (k !== key) delete o[key];
        stack.push((o[k] = v));
      }
    }
  }
  return root as T;
}

function stringProblem(s: string): InputProblemCode | null {
  if (s.includes("\0")) return "nul_character";
  return LONE_SURROGATE.test(s) ? "lone_surrogate" : null;
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
}

function pathOf(frame: Frame, last?: string): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * The first thing in a parsed JSON value (or a record of query or path strings) that no
 * request may carry, or null. Object keys count too: jsonb stores them as text. Iterative, and
 * it stops at the first level too deep, so 100,000 nested arrays cost 65 steps.
 */
export function inputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): InputProblem | null {
  const problem = (frame: Frame, code: InputProblemCode, key?: string): InputProblem => ({
    path: pathOf(frame, key),
    code,
    message: messageOf(code, maxDepth),
  });
  const stack: Frame[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    if (typeof v === "string") {
      const code = stringProblem(v);
      if (code) return problem(frame, code);
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    const depth = frame.depth + 1;
    if (depth > maxDepth) return problem(frame, "too_deep");
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, parent: frame, key: i });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const code = stringProblem(key);
      if (code) return problem(frame, code, key);
      stack.push({ value: (v as Record<string, unknown>)[key], depth, parent: frame, key });
    }
  }
  return null;
}
