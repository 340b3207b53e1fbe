// Server logs outlive the conversations they mention and reach people and services that must
// never see a user's credentials. Errors carry message text more often than one expects:
// a database error's `detail` quotes the failing row, an SDK error quotes the response, a
// `cause` chain carries either. So every argument is redacted on its way to the console,
// strings, Errors (message, stack, cause and their own fields) and plain data alike.
// No Node-only imports: this may run wherever the code that logs runs.
import { redactSecrets } from "@/lib/redact";

const MAX_DEPTH = 6;

/** A copy of `value` safe to log: every string inside it redacted; Errors stay Errors. */
export function redactForLog(value: unknown): unknown {
  return redactValue(value, 0, new WeakSet());
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  if (seen.has(value) || depth >= MAX_DEPTH) return "[…]";
  seen.add(value);
  if (value instanceof Error) return redactError(value, depth, seen);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, seen));
  const proto: unknown = Object.getPrototypeOf(value);
  // Other class instances are shown by their string form, which is all that is redacted.
  if (proto !== Object.prototype && proto !== null) return redactSecrets(String(value));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, depth + 1, seen)]));
}

function redactError(err: Error, depth: number, seen: WeakSet<object>): Error {
  // A plain Error, not the original class: a subclass's getters could rebuild the message from
  // unredacted state. The name and stack keep what a reader needs to find the class.
  const copy = new Error(redactSecrets(err.message));
  copy.name = err.name;
  copy.stack = err.stack === undefined ? undefined : redactSecrets(err.stack);
  if (err.cause !== undefined) copy.cause = redactValue(err.cause, depth + 1, seen);
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) if (k !== "cause") fields[k] = redactValue(v, depth + 1, seen);
  if (err instanceof AggregateError) fields.errors = err.errors.map((e: unknown) => redactValue(e, depth + 1, seen));
  return Object.assign(copy, fields);
}

function write(sink: (...args: unknown[]) => void, args: unknown[]): void {
  sink(...args.map(redactForLog));
}

/** console.error / warn / info, with every argument redacted first. */
export const log = {
  // Looked up at each call, so whatever console is current (a test's spy included) is used.
  error: (...args: unknown[]): void => write((...a) => console.error(...a), args),
  warn: (...args: unknown[]): void => write((...a) => console.warn(...a), args),
  info: (...args: unknown[]): void => write((...a) => console.info(...a), args),
};
