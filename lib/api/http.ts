import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { authenticate, type Caller } from "@/lib/auth";
import { recordSignIn } from "@/lib/audit/sign-in";
import type { Admission } from "@/lib/auth/api-keys";
import { authMode } from "@/lib/mode";
import { authEnv } from "@/lib/env";
import { bodyLimitOf, scopeOf, type EndpointSpec, type Inputs, type UploadedFile, type UploadSpec } from "@/lib/contract/endpoint";
import { inputProblem, type InputProblem } from "@/lib/contract/input-guard";
import { decisiveIssues } from "@/lib/contract/issues";
import { AppError, badRequest } from "@/lib/errors";
import { requireScope } from "@/lib/keys/scopes";
import { admit, limits, rateLimitHeaders, type Quota } from "@/lib/limits";
import { log } from "@/lib/log";
import { assertRoomToWrite } from "@/lib/db/storage";
import { isShuttingDown, SHUTDOWN_RETRY_AFTER_S, trackRequest } from "@/lib/shutdown";
import { anthropicError } from "./anthropic/errors";
import { openaiError } from "./openai/errors";
import { readBodyBytes, readBodyText } from "./body";
import { metricsTokenRequired, operatorAccess } from "./operator";
import { assertAllowedHost, assertSameOriginWrite, hostPolicy, requestHost } from "./edge";
import { requestContextOf, requestIdOf, runWithRequest, withRequestId, type Actor } from "@/lib/request-context";
import { API_CSP, BASE_SECURITY_HEADERS } from "./security-headers";
import type { ApiErrorJson, BearerErrorJson } from "@/lib/contract";

export function json<T>(body: T, status = 200, headers?: Record<string, string>): NextResponse<T> {
  return NextResponse.json(body, { status, headers });
}

/** 204: done, nothing to say. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

function errorBody(err: AppError, requestId: string): ApiErrorJson {
  const error: ApiErrorJson["error"] = { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
  // An unexpected failure names the request, so a report can be matched with the server's log.
  if (err.status >= 500 && err.code === "internal_error") error.request_id = requestId;
  return { error };
}

/** Maps any thrown value to the shared error shape; unknown errors never leak internals. */
function toAppError(err: unknown, requestId: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return badRequest(describeZod(err), { issues: zodIssues(err) });
  withRequestId(requestId, () => log.error(`[threadkeeper] unexpected error (request ${requestId})`, err));
  return new AppError(500, "internal_error", "Something went wrong on our side; nothing was lost. Please retry.");
}

/**
 * An authentication failure as OAuth answers it (RFC 6750): the body says what its challenge
 * says, so a client that shows either shows why. Null for any other error.
 */
function bearerErrorBody(e: AppError): BearerErrorJson | null {
  const challenge = e.headers?.["WWW-Authenticate"];
  if (!challenge?.startsWith("Bearer") || (e.status !== 401 && e.status !== 403)) return null;
  const error = /error="([a-z_]+)"/.exec(challenge)?.[1] ?? e.code;
  return { error, error_description: e.message, code: e.code, ...(e.details !== undefined ? { details: e.details } : {}) };
}

function errorResponse(err: unknown, dialect: EndpointSpec["dialect"], requestId: string): Response {
  const e = toAppError(err, requestId);
  if (dialect === "anthropic" || dialect === "openai") {
    const { status, body } = dialect === "anthropic" ? anthropicError(e) : openaiError(e);
    return json(body, status, e.headers);
  }
  const bearer = dialect === "mcp" ? bearerErrorBody(e) : null;
  if (bearer) return json(bearer, e.status, e.headers);
  return json(errorBody(e, requestId), e.status, e.headers);
}

/**
 * A read whose rate-limit counter could not be written for a full disk goes on uncounted: the
 * person can still read what they have, and a full disk ends no one's rate limit for long.
 */
function readAnyway(err: unknown, writes: boolean): null {
  if (!writes && err instanceof AppError && err.code === "storage_full") return null;
  throw err;
}

/** 503 while the process shuts down (lib/shutdown.ts): another instance, or this one restarted, answers the retry. */
function shuttingDown(): AppError {
  return new AppError(503, "shutting_down", "This server is shutting down; retry in a few seconds.", undefined, {
    "Retry-After": String(SHUTDOWN_RETRY_AFTER_S),
  });
}

/**
 * What a route's handler receives: its descriptor's inputs parsed, the request and the verified
 * caller; a public endpoint's handler gets no caller at all, an operator's none when the
 * operator's token let the request in.
 */
export type RouteInput<E extends EndpointSpec> = Inputs<E> & { req: Request } & (E extends { public: true }
    ? { caller?: never }
    : E extends { operator: true }
      ? { caller?: Caller }
      : { caller: Caller });

/** Next.js hands a route its dynamic segments; route() validates them against the descriptor. */
interface RouteContext {
  params: Promise<unknown>;
}

/**
 * Binds a handler to its endpoint descriptor (lib/contract/endpoints) and runs the descriptor:
 * the edge checks (Host, then the caller, then the CSRF rule for browser writes), an API key's
 * scope and the rate limits; then path parameters (malformed: 404), query and body (400, 413)
 * are parsed with its schemas. Every failure answers with the shared error shape, and every
 * answer carries the security headers and, when a limit applies, the RateLimit-* headers.
 * The handler receives the verified caller, so no route can forget to check it. A public
 * endpoint (the health check) passes the Host check only, and its handler gets no caller.
 */
export function route<E extends EndpointSpec>(endpoint: E, handler: (input: RouteInput<E>) => Promise<Response>) {
  if (endpoint.public) return Object.assign(publicRoute(endpoint, handler), { endpoint });
  const scope = scopeOf(endpoint);
  const send = endpoint.send === true;
  // By scope, not method: a read in a POST (count_tokens, MCP) writes nothing of the person's.
  const writes = scope !== "read";
  const run = async (req: Request, ctx?: RouteContext): Promise<Response> => {
    if (isShuttingDown()) return withSecurityHeaders(errorResponse(shuttingDown(), endpoint.dialect, requestIdOf(req)));
    const done = trackRequest();
    try {
      return await handle(req, ctx);
    } finally {
      done();
    }
  };
  const handle = async (req: Request, ctx?: RouteContext): Promise<Response> => {
    let res: Response;
    let requestId: string | null = null;
    let quota: Quota | null = null;
    try {
      const caller = await callerOf(req, endpoint, { scope, requestsPerMinute: send ? 0 : limits().requestsPerMinute });
      // Before admission, which writes too: a refused write should cost nothing, not even disk.
      if (writes) await assertRoomToWrite();
      quota = caller ? await admit(caller, { send }).catch((err: unknown) => readAnyway(err, writes)) : null;
      const actor: Actor = !caller
        ? SCRAPER
        : caller.key
          ? { type: "key", id: caller.key.id, name: caller.key.name }
          : { type: "user", id: caller.userId, name: caller.email };
      const context = requestContextOf(req, actor);
      requestId = context.requestId;
      res = await runWithRequest(context, async () => {
        if (caller?.signInId) await recordSignIn(caller.userId, caller.signInId, caller.via);
        const inputs = await parseInputs(endpoint, req, ctx);
        return handler({ ...inputs, req, caller } as RouteInput<E>);
      });
    } catch (err) {
      requestId ??= requestIdOf(req);
      res = errorResponse(err, endpoint.dialect, requestId);
    }
    if (requestId) res.headers.set("x-request-id", requestId);
    // Anthropic clients read the request id from `request-id`.
    if (requestId && endpoint.dialect === "anthropic") res.headers.set("request-id", requestId);
    if (quota) for (const [name, value] of Object.entries(rateLimitHeaders(quota))) res.headers.set(name, value);
    return withSecurityHeaders(res);
  };
  // The descriptor travels with the handler, so a test can check each route file binds its own.
  return Object.assign(run, { endpoint });
}

/**
 * The verified caller, held to the route's scope and counted in its key's lookup when it is one
 * (a send's request is counted with its send and its budget in admit() instead, so a send refused
 * by either takes nothing). Null: the operator's token let an operator's request in, as nobody's.
 */
async function callerOf(req: Request, endpoint: EndpointSpec, admission: Admission): Promise<Caller | null> {
  if (endpoint.operator) {
    const local = authMode() === "local";
    // The Host rule holds for the token too; the token is read before any credential.
    assertHost(req);
    if (operatorAccess(req, local) === "token") return null;
    if (!local) {
      // Credentials are verified first, so a bad one is the 401 it is on every other route.
      await edgeChecks(req);
      throw metricsTokenRequired();
    }
  }
  const caller = await edgeChecks(req, admission, endpoint.upload ? "multipart" : "json");
  requireScope(caller.key?.scopes ?? null, admission.scope);
  return caller;
}

/** Who a public endpoint's request runs as: nobody in particular. */
const ANONYMOUS: Actor = { type: "system", id: null, name: null };

/** Who a scrape by the operator's token runs as. */
const SCRAPER: Actor = { type: "system", id: null, name: "metrics scraper" };

/**
 * A public endpoint: the Host rule of the edge holds, but no credentials are read (a bad token
 * changes nothing), nothing is counted against a limit, and the handler has no caller.
 */
function publicRoute<E extends EndpointSpec>(endpoint: E, handler: (input: RouteInput<E>) => Promise<Response>) {
  // A write needs the CSRF rule, and the CSRF rule needs to know the caller.
  if (endpoint.method !== "GET") throw new Error(`${endpoint.method} ${endpoint.path}: only a GET can be public`);
  return async (req: Request, ctx?: RouteContext): Promise<Response> => {
    let res: Response;
    const context = requestContextOf(req, ANONYMOUS);
    try {
      assertHost(req);
      res = await runWithRequest(context, async () => handler({ ...(await parseInputs(endpoint, req, ctx)), req } as RouteInput<E>));
    } catch (err) {
      res = errorResponse(err, endpoint.dialect, context.requestId);
    }
    res.headers.set("x-request-id", context.requestId);
    return withSecurityHeaders(res);
  };
}

async function parseInputs<E extends EndpointSpec>(endpoint: E, req: Request, ctx: RouteContext | undefined): Promise<Inputs<E>> {
  const params = endpoint.params ? parseParams(await ctx?.params, endpoint.params) : undefined;
  const query = endpoint.query ? parseQuery(req, endpoint.query) : undefined;
  const body = endpoint.body ? await parseBody(req, endpoint.body, bodyLimitOf(endpoint)) : undefined;
  const upload = endpoint.upload && !endpoint.upload.streamed ? await parseUpload(req, endpoint.upload) : undefined;
  return { params, query, body, upload } as Inputs<E>;
}

/**
 * Host, then the caller, then the CSRF rule for browser writes; answers the verified caller.
 * Given the route's admission, a request by API key is also held to its scope and counted in
 * the key's lookup.
 */
export async function edgeChecks(req: Request, admission?: Admission, body: "json" | "multipart" = "json"): Promise<Caller> {
  assertHost(req);
  const caller = await authenticate(req, admission);
  assertSameOriginWrite(req, caller.via, body);
  return caller;
}

function assertHost(req: Request): void {
  assertAllowedHost(requestHost(req), hostPolicy(authMode() === "local", authEnv().THREADKEEPER_ALLOWED_HOSTS));
}

function withSecurityHeaders(res: Response): Response {
  for (const [name, value] of BASE_SECURITY_HEADERS) res.headers.set(name, value);
  res.headers.set("Content-Security-Policy", API_CSP);
  return res;
}

function zodIssues(err: z.ZodError) {
  return decisiveIssues(err.issues).map((i) => ({ path: i.path.join("."), message: i.message, code: i.code }));
}

function describeZod(err: z.ZodError): string {
  const first = decisiveIssues(err.issues)[0];
  if (!first) return "Invalid request";
  const where = first.path.length ? `'${first.path.join(".")}'` : "request";
  return `Invalid ${where}: ${first.message}`;
}

/** Parses a JSON body against a schema; malformed JSON and wrong shapes are 400s naming the field. */
async function parseBody<S extends z.ZodType>(req: Request, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const raw = await readBodyText(req, maxBytes);
  let data: unknown = {};
  if (raw.trim() !== "") {
    try {
      data = JSON.parse(raw);
    } catch (e) {
      throw new AppError(400, "malformed_json", "Request body is not valid JSON", { reason: (e as Error).message });
    }
  }
  return schema.parse(guarded(data));
}

/**
 * A multipart upload's one file, read against the endpoint's limit before anything is kept
 * (the body streams into memory only up to it). No file in the field is a 400 naming it.
 */
async function parseUpload(req: Request, spec: UploadSpec): Promise<UploadedFile> {
  const raw = await readBodyBytes(req, spec.maxBytes);
  let form: FormData;
  try {
    form = await new Response(new Blob([new Uint8Array(raw)]), { headers: { "content-type": req.headers.get("content-type") ?? "" } }).formData();
  } catch (e) {
    throw badRequest("The body is not valid multipart/form-data", { reason: (e as Error).message });
  }
  const file = form.get(spec.field);
  if (!file || typeof file === "string") {
    throw badRequest(`Invalid '${spec.field}': send the file as the multipart field '${spec.field}'`, {
      issues: [{ path: spec.field, message: "a file is required", code: "invalid_type" }],
    });
  }
  return { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
}

function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return schema.parse(guarded(Object.fromEntries(new URL(req.url).searchParams)));
}

function parseParams<S extends z.ZodType>(params: unknown, schema: S): z.infer<S> {
  const problem = inputProblem(params);
  const result = schema.safeParse(params);
  // A malformed id in the path names nothing that exists.
  if (problem) throw new AppError(404, "not_found", "No such resource", { issues: [problemIssue(problem)] });
  if (!result.success) throw new AppError(404, "not_found", "No such resource", { issues: zodIssues(result.error) });
  return result.data;
}

/** Refuses what no request may carry (lib/contract/input-guard.ts) before any schema or recursion reads it. */
function guarded<T>(value: T): T {
  const problem = inputProblem(value);
  if (!problem) return value;
  const where = problem.path.length ? `'${problem.path.join(".")}'` : "request";
  throw badRequest(`Invalid ${where}: ${problem.message}`, { issues: [problemIssue(problem)] });
}

const problemIssue = (p: InputProblem) => ({ path: p.path.join("."), message: p.message, code: p.code });

