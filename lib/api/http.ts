import { NextResponse } from "next/server";
import { z } from "zod";
import { authenticate, type Caller } from "@/lib/auth";
import { recordSignIn } from "@/lib/audit/sign-in";
import type { Admission } from "@/lib/auth/api-keys";
import { authMode } from "@/lib/mode";
import { authEnv } from "@/lib/env";
import { AppError, badRequest } from "@/lib/errors";
import { requireScope, scopeForMethod, type Scope } from "@/lib/keys/scopes";
import { admit, limits, rateLimitHeaders, type Quota } from "@/lib/limits";
import { log } from "@/lib/log";
import { assertAllowedHost, assertSameOriginWrite, hostPolicy, requestHost } from "./edge";
import { requestContextOf, runWithRequest, type Actor } from "@/lib/request-context";
import { API_CSP, BASE_SECURITY_HEADERS } from "./security-headers";
import type { ApiErrorJson } from "@/lib/contract";

export function json<T>(body: T, status = 200, headers?: Record<string, string>): NextResponse<T> {
  return NextResponse.json(body, { status, headers });
}

function errorBody(err: AppError): ApiErrorJson {
  return { error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) } };
}

/** Maps any thrown value to the shared error shape; unknown errors never leak internals. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return badRequest(describeZod(err), { issues: zodIssues(err) });
  log.error("[threadkeeper] unexpected error", err);
  return new AppError(500, "internal_error", "Something went wrong on our side; nothing was lost. Please retry.");
}

function errorResponse(err: unknown): NextResponse<ApiErrorJson> {
  const e = toAppError(err);
  return json(errorBody(e), e.status, e.headers);
}

export interface RouteOptions {
  /** What an API key needs for this route; default `read` for GET and HEAD, `write` otherwise. */
  scope?: Scope;
  /** A send: it also takes from the caller's sends-per-minute bucket and must fit today's token budget. */
  send?: boolean;
}

/**
 * Wraps a route handler: the edge checks (Host, then the caller, then the CSRF rule for
 * browser writes), an API key's scope, and the rate limits run before it; every failure
 * answers with the shared error shape, and every answer carries the security headers and,
 * when a limit applies, the RateLimit-* headers. The handler receives the verified caller,
 * so no route can forget to check it.
 */
export function route<C>(handler: (req: Request, ctx: C, caller: Caller) => Promise<Response>, opts: RouteOptions = {}) {
  return async (req: Request, ctx: C): Promise<Response> => {
    let res: Response;
    let requestId: string | null = null;
    let quota: Quota | null = null;
    try {
      const scope = opts.scope ?? scopeForMethod(req.method);
      // A send's request is counted with its send and its budget in admit(), so that a send
      // refused by either takes nothing; any other request by key is counted in its lookup.
      const caller = await edgeChecks(req, { scope, requestsPerMinute: opts.send ? 0 : limits().requestsPerMinute });
      requireScope(caller.key?.scopes ?? null, scope);
      quota = await admit(caller, { send: opts.send === true });
      const actor: Actor = caller.key
        ? { type: "key", id: caller.key.id, name: caller.key.name }
        : { type: "user", id: caller.userId, name: caller.email };
      const context = requestContextOf(req, actor);
      requestId = context.requestId;
      res = await runWithRequest(context, async () => {
        if (caller.signInId) await recordSignIn(caller.userId, caller.signInId, caller.via);
        return handler(req, ctx, caller);
      });
    } catch (err) {
      res = errorResponse(err);
    }
    if (requestId) res.headers.set("x-request-id", requestId);
    if (quota) for (const [name, value] of Object.entries(rateLimitHeaders(quota))) res.headers.set(name, value);
    return withSecurityHeaders(res);
  };
}

/**
 * Host, then the caller, then the CSRF rule for browser writes; answers the verified caller.
 * Given the route's admission, a request by API key is also held to its scope and counted in
 * the key's lookup.
 */
export async function edgeChecks(req: Request, admission?: Admission): Promise<Caller> {
  assertAllowedHost(requestHost(req), hostPolicy(authMode() === "local", authEnv().THREADKEEPER_ALLOWED_HOSTS));
  const caller = await authenticate(req, admission);
  assertSameOriginWrite(req, caller.via);
  return caller;
}

function withSecurityHeaders(res: Response): Response {
  for (const [name, value] of BASE_SECURITY_HEADERS) res.headers.set(name, value);
  res.headers.set("Content-Security-Policy", API_CSP);
  return res;
}

function zodIssues(err: z.ZodError) {
  return err.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code }));
}

function describeZod(err: z.ZodError): string {
  const first = err.issues[0];
  if (!first) return "Invalid request";
  const where = first.path.length ? `'${first.path.join(".")}'` : "request";
  return `Invalid ${where}: ${first.message}`;
}

/** Parses a JSON body against a schema; malformed JSON and wrong shapes are 400s naming the field. */
export async function parseBody<S extends z.ZodType>(req: Request, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const raw = await req.text();
  if (Buffer.byteLength(raw, "utf8") > maxBytes) {
    throw new AppError(413, "payload_too_large", `Request body exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
  }
  let data: unknown = {};
  if (raw.trim() !== "") {
    try {
      data = JSON.parse(raw);
    } catch (e) {
      throw new AppError(400, "malformed_json", "Request body is not valid JSON", { reason: (e as Error).message });
    }
  }
  return schema.parse(data);
}

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return schema.parse(Object.fromEntries(new URL(req.url).searchParams));
}

export function parseParams<S extends z.ZodType>(params: unknown, schema: S): z.infer<S> {
  const result = schema.safeParse(params);
  // A malformed id in the path names nothing that exists.
  if (!result.success) throw new AppError(404, "not_found", "No such resource", { issues: zodIssues(result.error) });
  return result.data;
}

export { uuid } from "@/lib/contract/meta";
