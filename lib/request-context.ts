// Who is asking, for the code that runs on their behalf: the audit log records the actor,
// the request id, IP and user agent of each operation without every library function taking
// them as parameters. AsyncLocalStorage follows the request through awaits, so work that
// outlives the response (the compaction after a turn) is still attributed to it.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface Actor {
  type: "user" | "key" | "system";
  id: string | null;
  name: string | null;
}

export interface RequestContext {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
  actor: Actor;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequest<T>(ctx: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

/**
 * Runs `fn` (synchronously) as part of the request with this id: for what is logged about a
 * request outside its context (its unexpected error, caught after the context ended).
 */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ ...currentRequest(), requestId }, fn);
}

/** The current request's context; work started outside any request acts as the system. */
export function currentRequest(): RequestContext {
  return storage.getStore() ?? { requestId: "", ip: null, userAgent: null, actor: { type: "system", id: null, name: null } };
}

/**
 * The request's id (a caller's `x-request-id` when it looks like one, else a new one), and
 * the client's address as the proxy in front reports it: the first `x-forwarded-for` entry.
 * Recorded for the audit log, never used to decide anything.
 */
export function requestContextOf(req: Request, actor: Actor): RequestContext {
  const requestId = requestIdOf(req);
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = (forwarded || req.headers.get("x-real-ip") || null)?.slice(0, 100) ?? null;
  return { requestId, ip, userAgent: req.headers.get("user-agent")?.slice(0, 500) ?? null, actor };
}

/** The request's id: the caller's `x-request-id` when it looks like one, else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
}
