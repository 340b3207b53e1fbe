// Server logs outlive the conversations they mention and reach people and services that must
// never see a user's credentials. Errors carry message text more often than one expects:
// a database error's `detail` quotes the failing row, an SDK error quotes the response, a
// `cause` chain carries either. So every argument is redacted on its way to the console,
// strings, Errors (message, stack, cause and their own fields) and plain data alike.
//
// THREADKEEPER_LOG_FORMAT=json writes one JSON object per line instead, for a log collector:
// `{ "time", "level", "msg", "request_id"?, "error"?, "data"? }` (request_id when the line is
// written on behalf of an API request). The default is the human format, as console prints it.
import { redactSecrets } from "@/lib/redact";
import { currentRequest } from "@/lib/request-context";

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

type Level = "error" | "warn" | "info";

function write(level: Level, sink: (...args: unknown[]) => void, args: unknown[]): void {
  const redacted = args.map(redactForLog);
  // Read at each call (a process.env lookup), so a test can switch formats.
  if (process.env.THREADKEEPER_LOG_FORMAT === "json") sink(jsonLine(level, redacted));
  else sink(...redacted);
}

/**
 * One line of JSON: strings (and numbers, booleans) make the message, the first Error is
 * `error` (its name, message, stack and cause), anything else is `data`.
 */
export function jsonLine(level: Level, args: unknown[]): string {
  const words: string[] = [];
  const data: unknown[] = [];
  let error: Record<string, unknown> | undefined;
  for (const arg of args) {
    if (typeof arg === "string" || typeof arg === "number" || typeof arg === "boolean") words.push(String(arg));
    else if (arg instanceof Error && !error) error = errorJson(arg, 0);
    else data.push(arg instanceof Error ? errorJson(arg, 0) : arg);
  }
  const requestId = currentRequest().requestId;
  const line: Record<string, unknown> = { time: new Date().toISOString(), level, msg: words.join(" ") };
  if (requestId) line.request_id = requestId;
  if (error) line.error = error;
  if (data.length) line.data = data.length === 1 ? data[0] : data;
  try {
    return JSON.stringify(line);
  } catch {
    // A circular or otherwise unserializable argument: the message and error still go out.
    return JSON.stringify({ ...line, data: "[unserializable]" });
  }
}

function errorJson(err: Error, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  // Its own fields (a database error's code and detail), already redacted.
  for (const [k, v] of Object.entries(err)) if (k !== "cause" && !(k in out)) out[k] = v;
  if (err.stack) out.stack = err.stack;
  if (err.cause !== undefined) out.cause = err.cause instanceof Error && depth < MAX_DEPTH ? errorJson(err.cause, depth + 1) : err.cause;
  return out;
}

/** console.error / warn / info, with every argument redacted first. */
export const log = {
  // Looked up at each call, so whatever console is current (a test's spy included) is used.
  error: (...args: unknown[]): void => write("error", (...a) => console.error(...a), args),
  warn: (...args: unknown[]): void => write("warn", (...a) => console.warn(...a), args),
  info: (...args: unknown[]): void => write("info", (...a) => console.info(...a), args),
};
