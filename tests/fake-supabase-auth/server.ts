/**
 * A fake Supabase Auth (GoTrue) server: a real HTTP server that the real `@supabase/supabase-js`
 * and `@supabase/ssr` talk to, issuing ES256 JWTs from a rotatable key published as a JWKS, so
 * tests exercise the SDK's own requests, session handling and error mapping and the app's own
 * token verification instead of mocks.
 *
 * In-process use (vitest):
 *   const fake = await startFakeSupabaseAuth();
 *   const supabase = createClient(fake.url, "publishable-key", { auth: { persistSession: false } });
 *   await supabase.auth.signUp({ email, password });
 *   const expired = await fake.mintToken({ user: email, expiresIn: -60 });
 *
 * Standalone use (Playwright webServer, demos):
 *   FAKE_SUPABASE_PORT=4012 npx tsx tests/fake-supabase-auth/server.ts
 *   → prints "fake-supabase-auth listening on http://127.0.0.1:4012"; use that as SUPABASE_URL and
 *     drive it with the control endpoints (see ./control.ts for a typed client):
 *     GET /health, POST /__control/reset, POST /__control/rotate-key, POST /__control/mint,
 *     GET /__control/emails, GET|POST /__control/users, GET /__control/sessions, GET /__control/requests.
 *   Other settings: FAKE_SUPABASE_HOST, FAKE_SUPABASE_CONFIRM_EMAIL=1, FAKE_SUPABASE_ACCESS_TOKEN_TTL
 *   (seconds), FAKE_SUPABASE_API_KEY (the only accepted apikey), FAKE_SUPABASE_SITE_URL.
 *
 * Endpoints under /auth/v1: POST /signup, POST /token?grant_type=password|refresh_token|pkce,
 * GET|PUT /user, POST /logout?scope=global|local|others, POST /recover, POST|GET /verify,
 * GET /settings, GET /.well-known/jwks.json. Every one but the JWKS and the email link (GET /verify)
 * needs an `apikey` header, as Supabase's gateway does; cross-origin browser calls get CORS answers.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { runIfEntry } from "../fake-anthropic/standalone";
import { parseCreateUser, parseMintOptions, parseRotateKeyOptions } from "./control-input";
import { AuthError, OAuthError, errorBody, errorStatus } from "./errors";
import { KeyRing } from "./keys";
import { AuthRoutes, NoRoute, type AuthReply } from "./routes";
import { AuthStore, publicUser } from "./store";
import { TokenIssuer } from "./tokens";
import type {
  CreateUserInput,
  EmailType,
  FakeSession,
  FakeUser,
  MintOptions,
  RecordedAuthRequest,
  RotateKeyOptions,
  RotateKeyResult,
  SentEmail,
} from "./types";
import { flattenHeaders, listenOn, parseJson, readBody } from "../fake-http";

export type * from "./types";
export { GUESSABLE_HS256_SECRET } from "./keys";

export interface FakeSupabaseAuth {
  /** e.g. http://127.0.0.1:54321: the project URL (SUPABASE_URL, createClient's first argument). */
  url: string;
  /** `${url}/auth/v1`, also every token's `iss`. */
  authUrl: string;
  /** `${url}/auth/v1/.well-known/jwks.json`. */
  jwksUrl: string;
  /** The `kid` new tokens are signed with. */
  readonly kid: string;
  /** Snapshot of the stored users (no passwords). */
  readonly users: FakeUser[];
  /** Every email "sent", oldest first (live array). */
  readonly emails: SentEmail[];
  /** Every `/auth/v1` request received, oldest first (live array). */
  readonly requests: RecordedAuthRequest[];
  /** Live sessions, optionally of one user (id). */
  sessions(userId?: string): FakeSession[];
  /** The newest email to an address, optionally of one type. */
  latestEmail(to: string, type?: EmailType): SentEmail | undefined;
  /** Adds a user directly (confirmed unless told otherwise), as an admin or seed script would. */
  createUser(input: CreateUserInput): FakeUser;
  /** A token signed (or mis-signed) as told; see MintOptions. */
  mintToken(opts?: MintOptions): Promise<string>;
  /** New signing key; the old one stays in the JWKS for a grace period unless `dropOld`. */
  rotateKey(opts?: RotateKeyOptions): Promise<RotateKeyResult>;
  /** Forgets users, sessions, emails and recorded requests; keeps the signing keys. */
  reset(): void;
  close(): Promise<void>;
}

export interface StartFakeSupabaseAuthOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3600, GoTrue's default JWT expiry. */
  accessTokenTtlSeconds?: number;
  /** Require email confirmation before sign-in (GoTrue without autoconfirm). Default false. */
  confirmEmail?: boolean;
  /** The apikey values accepted; default: any non-empty value. */
  apiKeys?: string[];
  /** Where email links lead without a redirect_to (GoTrue's SITE_URL). Default http://localhost:3000. */
  siteUrl?: string;
  /** Default 6, GoTrue's default minimum. */
  minPasswordLength?: number;
}

const AUTH_PREFIX = "/auth/v1";
/** Served without an apikey, as Supabase's gateway does: JWKS discovery and email links opened in a browser. */
const OPEN_ROUTES = new Set(["GET /.well-known/jwks.json", "GET /verify"]);
const ALLOWED_HEADERS = ["authorization", "apikey", "content-type", "x-client-info", "x-supabase-api-version"];
const API_VERSION_HEADER = "x-supabase-api-version";
const API_VERSION = "2024-01-01";

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Responses must expose the API-version header, or a browser's supabase-js cannot read error codes. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": `${API_VERSION_HEADER}, x-total-count, link`,
    vary: "Origin",
  };
}

function preflightHeaders(req: IncomingMessage): Record<string, string> {
  // Echo what the browser asks for on top of the known list, like Supabase's gateway does, so an
  // SDK upgrade that adds a header (e.g. tracing) does not turn into a CORS failure here.
  const requested = (req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    ...corsHeaders(req),
    "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
    "access-control-allow-headers": [...new Set([...ALLOWED_HEADERS, ...requested])].join(", "),
    "access-control-max-age": "600",
  };
}

/** GoTrue renders the 2024-01-01 error shape only when the request asked for that API version (or later). */
function wantsApi20240101(req: IncomingMessage): boolean {
  const asked = req.headers[API_VERSION_HEADER];
  return typeof asked === "string" && /^2\d{3}-\d{2}-\d{2}$/.test(asked) && asked >= API_VERSION;
}

class FakeSupabaseAuthServer implements FakeSupabaseAuth {
  url = "";
  authUrl = "";
  jwksUrl = "";
  readonly requests: RecordedAuthRequest[] = [];
  private readonly server: http.Server;
  private readonly ttl: number;
  // Set in listen(): the issuer and the email links need the URL, known only once bound.
  private store!: AuthStore;
  private issuer!: TokenIssuer;
  private routes!: AuthRoutes;

  constructor(
    private readonly keys: KeyRing,
    private readonly opts: StartFakeSupabaseAuthOptions,
  ) {
    this.ttl = opts.accessTokenTtlSeconds ?? 3600;
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (!res.headersSent) this.sendJson(req, res, 500, { code: 500, error_code: "unexpected_failure", msg: `fake-supabase-auth crashed: ${message}` });
        else res.destroy();
      });
    });
  }

  async listen(port: number, host: string): Promise<void> {
    this.url = await listenOn(this.server, port, host);
    this.authUrl = `${this.url}${AUTH_PREFIX}`;
    this.jwksUrl = `${this.authUrl}/.well-known/jwks.json`;
    const confirmEmail = this.opts.confirmEmail ?? false;
    const siteUrl = this.opts.siteUrl ?? "http://localhost:3000";
    this.store = new AuthStore({
      confirmEmail,
      minPasswordLength: this.opts.minPasswordLength ?? 6,
      otpTtlSeconds: 3600,
      authUrl: this.authUrl,
      siteUrl,
    });
    this.issuer = new TokenIssuer(this.keys, this.authUrl, this.ttl);
    this.routes = new AuthRoutes(this.store, this.issuer, this.keys, { confirmEmail, siteUrl });
  }

  get kid(): string {
    return this.keys.kid;
  }

  get users(): FakeUser[] {
    return this.store.listUsers();
  }

  get emails(): SentEmail[] {
    return this.store.emails;
  }

  sessions(userId?: string): FakeSession[] {
    return this.store.listSessions(userId);
  }

  latestEmail(to: string, type?: EmailType): SentEmail | undefined {
    const address = to.trim().toLowerCase();
    return this.store.emails.findLast((e) => e.to === address && (type === undefined || e.type === type));
  }

  createUser(input: CreateUserInput): FakeUser {
    return publicUser(this.store.createUser(input));
  }

  async mintToken(opts: MintOptions = {}): Promise<string> {
    let subject = null;
    if (opts.user !== undefined) {
      const user = this.store.findUser(opts.user);
      if (!user) throw new Error(`fake-supabase-auth: no user ${JSON.stringify(opts.user)}`);
      subject = { user, session: this.store.createSession(user, "password") };
    }
    return this.issuer.mint(opts, subject);
  }

  rotateKey(opts: RotateKeyOptions = {}): Promise<RotateKeyResult> {
    return this.keys.rotate({ dropOld: opts.dropOld, graceSeconds: opts.graceSeconds ?? this.ttl });
  }

  reset(): void {
    this.store.reset();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // supabase-js's fetch keeps connections alive; they would otherwise hold close() open.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const method = req.method ?? "GET";
    const json = parseJson(await readBody(req));

    if (url.pathname === "/health") return this.sendJson(req, res, 200, { ok: true });
    if (url.pathname.startsWith("/__control/")) return this.handleControl(req, res, method, url, json);
    if (url.pathname !== AUTH_PREFIX && !url.pathname.startsWith(`${AUTH_PREFIX}/`)) {
      return this.sendJson(req, res, 404, { message: "no Route matched with those values" });
    }

    const record: RecordedAuthRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req),
      body: json,
      status: 0,
    };
    this.requests.push(record);
    res.once("finish", () => {
      record.status = res.statusCode;
    });

    if (method === "OPTIONS") {
      res.writeHead(204, preflightHeaders(req));
      res.end();
      return;
    }

    const path = url.pathname.slice(AUTH_PREFIX.length) || "/";
    if (!OPEN_ROUTES.has(`${method} ${path}`)) {
      const rejection = this.checkApiKey(req, url);
      if (rejection) return this.sendJson(req, res, 401, rejection);
    }

    let reply: AuthReply;
    try {
      reply = await this.routes.handle({ method, path, query: url.searchParams, headers: req.headers, body: asObject(json) });
    } catch (err) {
      if (err instanceof NoRoute) return this.sendJson(req, res, 404, { message: "no Route matched with those values" });
      if (err instanceof AuthError || err instanceof OAuthError) {
        return this.sendJson(req, res, errorStatus(err), errorBody(err, wantsApi20240101(req)));
      }
      throw err;
    }
    if (reply.kind === "json") return this.sendJson(req, res, reply.status, reply.body);
    if (reply.kind === "redirect") {
      res.writeHead(303, { ...this.baseHeaders(req), location: reply.location });
      res.end();
      return;
    }
    res.writeHead(reply.status, this.baseHeaders(req));
    res.end();
  }

  /** The gateway's answer when the apikey is missing or not accepted; null when it passes. */
  private checkApiKey(req: IncomingMessage, url: URL): Record<string, string> | null {
    const header = req.headers.apikey;
    const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get("apikey") ?? "";
    if (key === "") return { message: "No API key found in request", hint: "No `apikey` request header or url param was found." };
    if (this.opts.apiKeys && !this.opts.apiKeys.includes(key)) {
      return { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." };
    }
    return null;
  }

  private async handleControl(req: IncomingMessage, res: ServerResponse, method: string, url: URL, json: unknown): Promise<void> {
    const route = `${method} ${url.pathname.slice("/__control".length)}`;
    try {
      switch (route) {
        case "POST /reset":
          this.reset();
          return this.sendJson(req, res, 200, { ok: true });
        case "POST /rotate-key":
          return this.sendJson(req, res, 200, await this.rotateKey(parseRotateKeyOptions(json)));
        case "POST /mint":
          return this.sendJson(req, res, 200, { token: await this.mintToken(parseMintOptions(json)) });
        case "GET /emails": {
          const to = url.searchParams.get("to")?.trim().toLowerCase();
          const type = url.searchParams.get("type");
          return this.sendJson(
            req,
            res,
            200,
            this.emails.filter((e) => (!to || e.to === to) && (!type || e.type === type)),
          );
        }
        case "GET /users":
          return this.sendJson(req, res, 200, this.users);
        case "POST /users":
          return this.sendJson(req, res, 201, this.createUser(parseCreateUser(json)));
        case "GET /sessions":
          return this.sendJson(req, res, 200, this.sessions(url.searchParams.get("user") ?? undefined));
        case "GET /requests":
          return this.sendJson(req, res, 200, this.requests);
        default:
          return this.sendJson(req, res, 404, { error: `Not found: ${route}` });
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return this.sendJson(req, res, 400, { error: message });
    }
  }

  private baseHeaders(req: IncomingMessage): Record<string, string> {
    const headers = corsHeaders(req);
    if (wantsApi20240101(req)) headers[API_VERSION_HEADER] = API_VERSION;
    return headers;
  }

  private sendJson(req: IncomingMessage, res: ServerResponse, status: number, payload: unknown): void {
    res.writeHead(status, { ...this.baseHeaders(req), "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  }
}

export async function startFakeSupabaseAuth(opts: StartFakeSupabaseAuthOptions = {}): Promise<FakeSupabaseAuth> {
  const fake = new FakeSupabaseAuthServer(await KeyRing.create(), opts);
  await fake.listen(opts.port ?? 0, opts.host ?? "127.0.0.1");
  return fake;
}

// ---------------------------------------------------------------------------------------------
// Standalone mode: `npx tsx tests/fake-supabase-auth/server.ts`
// ---------------------------------------------------------------------------------------------

runIfEntry(import.meta.url, async () => {
  const env = process.env;
  const port = Number(env.FAKE_SUPABASE_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0) throw new Error(`invalid FAKE_SUPABASE_PORT: ${env.FAKE_SUPABASE_PORT}`);
  const ttl = env.FAKE_SUPABASE_ACCESS_TOKEN_TTL ? Number(env.FAKE_SUPABASE_ACCESS_TOKEN_TTL) : undefined;
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
    throw new Error(`invalid FAKE_SUPABASE_ACCESS_TOKEN_TTL: ${env.FAKE_SUPABASE_ACCESS_TOKEN_TTL}`);
  }
  const fake = await startFakeSupabaseAuth({
    port,
    host: env.FAKE_SUPABASE_HOST || "127.0.0.1",
    accessTokenTtlSeconds: ttl,
    confirmEmail: env.FAKE_SUPABASE_CONFIRM_EMAIL === "1" || env.FAKE_SUPABASE_CONFIRM_EMAIL === "true",
    apiKeys: env.FAKE_SUPABASE_API_KEY ? [env.FAKE_SUPABASE_API_KEY] : undefined,
    siteUrl: env.FAKE_SUPABASE_SITE_URL || undefined,
  });
  console.log(`fake-supabase-auth listening on ${fake.url}`);
  return fake;
});
