// SaaS mode end to end at the route level: the real supabase-js signs users up against the
// fake Supabase Auth server, and the app verifies their tokens against its JWKS.
import { describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/audit/route";
import * as sessionRoute from "@/app/api/session/route";
import * as mcpRoute from "@/app/api/mcp/route";
import { req, useHarness } from "./harness";
import { sessionCookie, signUp, useSaas } from "./saas";

const h = useHarness({ online: false });
const saas = useSaas();

async function listSessions(headers: Record<string, string>): Promise<Response> {
  return sessionRoute.GET(req("GET", "/api/session", undefined, headers), undefined);
}

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("SaaS mode: every request a verified user", () => {
  it("refuses a request without a token with 401 and the error envelope", async () => {
    const res = await listSessions({});
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await errorOf(res)).toMatchObject({ code: "unauthenticated" });
  });

  it("the MCP endpoint answers RFC 6750's challenge: bare without credentials, invalid_token with why for a bad token", async () => {
    const call = (headers: Record<string, string>) =>
      mcpRoute.POST(
        req("POST", "/api/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { accept: "application/json, text/event-stream", ...headers }),
        undefined,
      );
    // No credentials, or a scheme it does not take: no error code in the challenge (§3), the reason in the body.
    for (const headers of [{}, { authorization: "Basic dXNlcjpwYXNz" }] as Record<string, string>[]) {
      const res = await call(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.json()).toMatchObject({ error: "unauthenticated", code: "unauthenticated", error_description: expect.stringMatching(/Sign in first|must be 'Bearer/) });
    }
    const forged = await call({ authorization: "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln" });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="The access token is not valid."');
    expect(await forged.json()).toEqual({ error: "invalid_token", error_description: "The access token is not valid.", code: "invalid_token" });
  });

  it("serves a signed-up user by bearer token, and creates their auth.users row on the embedded database", async () => {
    const user = await signUp(saas, "bearer");
    const created = await sessionRoute.POST(req("POST", "/api/session", { title: "mine" }, user.bearer), undefined);
    expect(created.status).toBe(201);
    const list = await listSessions(user.bearer);
    expect(list.status).toBe(200);
    const { sessions } = (await list.json()) as { sessions: { title: string }[] };
    expect(sessions.map((s) => s.title)).toEqual(["mine"]);
    const [row] = await h.db.transaction((tx) => tx.query<{ email: string }>("select email from auth.users where id = $1", [user.id]));
    expect(row?.email).toBe(user.email);
  });

  it("serves the browser's session cookie as @supabase/ssr writes it", async () => {
    const user = await signUp(saas, "cookie");
    const cookie = await sessionCookie(saas, user.email);
    expect(cookie).toMatch(/^sb-127-auth-token=base64-/);
    const created = await sessionRoute.POST(
      req("POST", "/api/session", { title: "from the browser" }, { cookie, origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }),
      undefined,
    );
    expect(created.status).toBe(201);
    const list = (await (await listSessions({ cookie })).json()) as { sessions: { title: string }[] };
    expect(list.sessions.map((s) => s.title)).toEqual(["from the browser"]);
  });

  it("holds cookie writes to the CSRF rule and exempts bearer writes", async () => {
    const user = await signUp(saas, "csrf");
    const cookie = await sessionCookie(saas, user.email);
    const foreign = { origin: "http://evil.example", "sec-fetch-site": "cross-site" };
    const byCookie = await sessionRoute.POST(req("POST", "/api/session", {}, { cookie, ...foreign }), undefined);
    expect(byCookie.status).toBe(403);
    expect(await errorOf(byCookie)).toMatchObject({ code: "csrf_rejected" });
    const plain = await sessionRoute.POST(req("POST", "/api/session", {}, { cookie, "content-type": "text/plain" }), undefined);
    expect(plain.status).toBe(403);
    const byBearer = await sessionRoute.POST(req("POST", "/api/session", {}, { ...user.bearer, ...foreign, "content-type": "text/plain" }), undefined);
    expect(byBearer.status).toBe(201);
  });

  it.each([
    ["expired", { expiresIn: -60 }, "token_expired"],
    ["signed by a key not in the JWKS but naming its kid (forged)", { signing: "forged" as const }, "invalid_token"],
    ["signed by an unknown kid", { signing: "unknown-kid" as const }, "invalid_token"],
    ["unsigned (alg none)", { signing: "none" as const }, "invalid_token"],
    ["HS256 with a guessable secret", { signing: "hs256" as const }, "invalid_token"],
    ["for another audience", { claims: { aud: "anon" } }, "invalid_token"],
    ["from another issuer", { claims: { iss: "https://evil.example/auth/v1" } }, "invalid_token"],
    ["without a subject", { claims: { sub: null } }, "invalid_token"],
  ])("refuses a token %s with 401", async (_what, mint, code) => {
    const user = await signUp(saas, "bad");
    const token = await saas.auth.mintToken({ user: user.email, ...mint });
    const res = await listSessions({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code });
  });

  it.each(["Bearer", "Bearer not a token", "Basic dXNlcjpwYXNz", "Token abc"])("refuses the Authorization header %j", async (header) => {
    const res = await listSessions({ authorization: header });
    expect(res.status).toBe(401);
  });

  it("refuses a cookie whose token is forged, and one that is not a session", async () => {
    const user = await signUp(saas, "badcookie");
    const forged = await saas.auth.mintToken({ user: user.email, signing: "forged" });
    const session = Buffer.from(JSON.stringify({ access_token: forged })).toString("base64url");
    expect((await listSessions({ cookie: `sb-127-auth-token=base64-${session}` })).status).toBe(401);
    expect((await listSessions({ cookie: "sb-127-auth-token=base64-%%%" })).status).toBe(401);
  });

  it("fetches the JWKS again when a token names a new kid after the key rotates", async () => {
    const user = await signUp(saas, "rotate");
    expect((await listSessions(user.bearer)).status).toBe(200); // the key set is now cached
    const { kid } = await saas.auth.rotateKey({ dropOld: true });
    const token = await saas.auth.mintToken({ user: user.email });
    // The verifier refetches an unknown kid at most once a second.
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await listSessions({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(kid).not.toBe(undefined);
    // A token of the dropped key no longer verifies.
    expect((await listSessions(user.bearer)).status).toBe(401);
  });

  it("answers 503 when the auth server cannot be reached, and says so", async () => {
    const url = process.env.SUPABASE_URL;
    process.env.SUPABASE_URL = "http://127.0.0.1:9"; // nothing listens on the discard port
    try {
      const token = await saas.auth.mintToken({});
      const res = await listSessions({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(503);
      expect(await errorOf(res)).toMatchObject({ code: "auth_unavailable" });
    } finally {
      process.env.SUPABASE_URL = url;
    }
  });

  it("refuses to run half-configured: a Supabase URL without its publishable key", async () => {
    const key = process.env.SUPABASE_PUBLISHABLE_KEY;
    delete process.env.SUPABASE_PUBLISHABLE_KEY;
    try {
      const res = await listSessions({});
      expect(res.status).toBe(500);
      expect(await errorOf(res)).toMatchObject({ code: "auth_misconfigured" });
    } finally {
      process.env.SUPABASE_PUBLISHABLE_KEY = key;
    }
  });
});

describe("sign-in in the audit log", () => {
  it("records a sign-in once, the first time one of its tokens reaches the server", async () => {
    const user = await signUp(saas, "audited");
    for (let i = 0; i < 3; i++) {
      const res = await sessionRoute.GET(req("GET", "/api/session", undefined, { ...user.bearer, "user-agent": "curl/8" }), undefined);
      expect(res.status).toBe(200);
    }
    const res = await auditRoute.GET(req("GET", "/api/audit?action=auth.signed_in", undefined, user.bearer), undefined);
    const { events } = (await res.json()) as { events: { actor: { id: string; name: string }; metadata: { via: string }; user_agent: string }[] };
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: { id: user.id, name: user.email }, metadata: { via: "bearer" }, user_agent: "curl/8" });
  });
});
