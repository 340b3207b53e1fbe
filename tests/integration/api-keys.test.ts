// API keys at the route level in local mode: create (the secret once), list, revoke; a key
// from any origin without the browser's CSRF headers; malformed, mistyped, unknown, revoked and
// expired keys; each scope against representative routes of every class; rate limits with their
// headers; and the daily token budget. The real routes on an in-memory PGlite; Claude is the
// fake Anthropic server.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as keyRoute from "@/app/api/keys/[id]/route";
import * as sessionRoute from "@/app/api/session/route";
import * as sessionIdRoute from "@/app/api/session/[id]/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import * as statusRoute from "@/app/api/context/status/route";
import * as templatesRoute from "@/app/api/context/templates/route";
import * as unknownRoute from "@/app/api/[...path]/route";
import type { ApiKeyJson, CreatedApiKeyJson } from "@/lib/contract";
import { LOCAL_USER_ID } from "@/lib/db";
import { history, idle, newSession, params, postMessage, req, sendJson, useHarness } from "./harness";

const h = useHarness();

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function createKey(body: object, headers: Record<string, string> = {}): Promise<CreatedApiKeyJson> {
  const res = await keysRoute.POST(req("POST", "/api/keys", body, headers), undefined);
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedApiKeyJson;
}

async function listKeys(headers: Record<string, string> = {}): Promise<ApiKeyJson[]> {
  const res = await keysRoute.GET(req("GET", "/api/keys", undefined, headers), undefined);
  if (res.status !== 200) throw new Error(`list keys: ${res.status}`);
  return ((await res.json()) as { keys: ApiKeyJson[] }).keys;
}

const revoke = (id: string, headers: Record<string, string> = {}) =>
  keyRoute.DELETE(req("DELETE", `/api/keys/${id}`, undefined, headers), params({ id }));

const listSessions = (headers: Record<string, string>) => sessionRoute.GET(req("GET", "/api/session", undefined, headers), undefined);

async function errorOf(res: Response): Promise<ErrorBody["error"]> {
  return ((await res.json()) as ErrorBody).error;
}

const LIMIT_VARS = ["THREADKEEPER_RATE_LIMIT_PER_MINUTE", "THREADKEEPER_SEND_LIMIT_PER_MINUTE", "THREADKEEPER_DAILY_TOKEN_BUDGET"];
afterEach(() => {
  for (const v of LIMIT_VARS) delete process.env[v];
});

describe("creating, listing and revoking keys", () => {
  it("answers the secret once, stores only its hash, and lists the key without it", async () => {
    const res = await keysRoute.POST(req("POST", "/api/keys", { name: "CI bot", scopes: ["write", "read", "read"] }), undefined);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { key, secret } = (await res.json()) as CreatedApiKeyJson;
    expect(secret).toMatch(/^tk_live_[0-9A-Za-z]{38}$/);
    expect(key).toMatchObject({ name: "CI bot", scopes: ["read", "write"], prefix: secret.slice(0, 16), status: "active", expires_at: null, last_used_at: null, revoked_at: null });

    const [row] = await h.db.transaction((tx) => tx.query<Record<string, unknown>>("select * from api_keys where id = $1", [key.id]));
    expect(row.user_id).toBe(LOCAL_USER_ID);
    expect(JSON.stringify(row)).not.toContain(secret.slice(16));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const listRes = await keysRoute.GET(req("GET", "/api/keys"), undefined);
    const text = await listRes.text();
    expect(text).not.toContain(secret.slice(16));
    expect(text).not.toContain(String(row.key_hash));
    expect(((JSON.parse(text) as { keys: ApiKeyJson[] }).keys).map((k) => k.id)).toContain(key.id);
  });

  it.each([
    ["no name", { scopes: ["read"] }, "'name'"],
    ["a blank name", { name: "   ", scopes: ["read"] }, "'name'"],
    ["no scopes", { name: "x", scopes: [] }, "'scopes'"],
    ["an unknown scope", { name: "x", scopes: ["read", "delete"] }, "'scopes.1'"],
    ["an expiry in the past", { name: "x", scopes: ["read"], expires_at: "2020-01-01T00:00:00Z" }, "'expires_at'"],
    ["an expiry that is no date", { name: "x", scopes: ["read"], expires_at: "tomorrow" }, "'expires_at'"],
    ["an unknown field", { name: "x", scopes: ["read"], secret: "mine" }, "request"],
  ])("refuses %s with a 400 naming the field", async (_what, body, field) => {
    const res = await keysRoute.POST(req("POST", "/api/keys", body), undefined);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain(field);
  });

  it("revokes at once (204, idempotent), keeps the key listed as revoked, and 404s an id that is no key", async () => {
    const { key, secret } = await createKey({ name: "short-lived", scopes: ["read"] });
    expect((await listSessions(bearer(secret))).status).toBe(200);
    expect((await revoke(key.id)).status).toBe(204);
    const after = await listSessions(bearer(secret));
    expect(after.status).toBe(401);
    expect(await errorOf(after)).toMatchObject({ code: "invalid_api_key", details: { reason: "revoked" } });
    const revokedAt = (await listKeys()).find((k) => k.id === key.id)?.revoked_at;
    expect(revokedAt).toBeTruthy();
    expect((await revoke(key.id)).status).toBe(204);
    expect((await listKeys()).find((k) => k.id === key.id)).toMatchObject({ status: "revoked", revoked_at: revokedAt });
    expect((await revoke("6f1c2b4e-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await revoke("not-a-uuid")).status).toBe(404);
  });

  it("a revoked key cannot be re-enabled, even by a direct update", async () => {
    const { key } = await createKey({ name: "gone", scopes: ["read"] });
    await revoke(key.id);
    await expect(h.db.transaction((tx) => tx.query("update api_keys set revoked_at = null where id = $1", [key.id]))).rejects.toThrow(
      /stays revoked/,
    );
    await expect(h.db.transaction((tx) => tx.query("update api_keys set scopes = '{admin}' where id = $1", [key.id]))).rejects.toThrow(
      /only last_used_at and revoked_at/,
    );
  });

  it("records the last use at most once a minute", async () => {
    const { key, secret } = await createKey({ name: "usage", scopes: ["read"] });
    await listSessions(bearer(secret));
    const first = (await listKeys()).find((k) => k.id === key.id)?.last_used_at;
    expect(first).toBeTruthy();
    await listSessions(bearer(secret));
    expect((await listKeys()).find((k) => k.id === key.id)?.last_used_at).toBe(first);
    // A minute later (moved back in time here) the next use is recorded again.
    await h.db.transaction((tx) => tx.query("update api_keys set last_used_at = last_used_at - interval '61 seconds' where id = $1", [key.id]));
    await listSessions(bearer(secret));
    expect(Date.parse((await listKeys()).find((k) => k.id === key.id)?.last_used_at ?? "")).toBeGreaterThan(Date.parse(first ?? "") - 1000);
  });
});

describe("authenticating by key", () => {
  let secret: string;
  beforeAll(async () => {
    ({ secret } = await createKey({ name: "any origin", scopes: ["read", "write"] }));
  });

  it("works from any origin, without JSON or same-origin headers, as the key's owner", async () => {
    const foreign = { origin: "https://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" };
    const browser = await sessionRoute.POST(req("POST", "/api/session", { title: "by cookie" }, foreign), undefined);
    expect(browser.status).toBe(403);
    expect(await errorOf(browser)).toMatchObject({ code: "csrf_rejected" });

    const byKey = await sessionRoute.POST(req("POST", "/api/session", { title: "by key" }, { ...foreign, ...bearer(secret) }), undefined);
    expect(byKey.status).toBe(201);
    const { session } = (await byKey.json()) as { session: { id: string } };
    const [row] = await h.db.transaction((tx) => tx.query<{ user_id: string }>("select user_id from sessions where id = $1", [session.id]));
    expect(row.user_id).toBe(LOCAL_USER_ID);
    const del = await sessionIdRoute.DELETE(req("DELETE", `/api/session/${session.id}`, undefined, { ...foreign, ...bearer(secret) }), params({ id: session.id }));
    expect(del.status).toBe(204);
  });

  it("refuses a key with a typo before any lookup, and malformed, unknown, revoked or expired keys, with 401 invalid_api_key", async () => {
    const at = 20;
    const typo = secret.slice(0, at) + (secret[at] === "Q" ? "R" : "Q") + secret.slice(at + 1);
    const { secret: expiring } = await createKey({ name: "expiring", scopes: ["read"], expires_at: new Date(Date.now() + 1200).toISOString() });
    expect((await listSessions(bearer(expiring))).status).toBe(200);
    const { key: revokedKey, secret: revokedSecret } = await createKey({ name: "revoked", scopes: ["read"] });
    await revoke(revokedKey.id);
    // A well-formed key (valid checksum) that was never issued.
    const { generateKey } = await import("@/lib/keys/format");
    const unknown = generateKey().secret;
    await new Promise((r) => setTimeout(r, 1300));
    const cases: [string, string][] = [
      [typo, "bad_checksum"],
      ["tk_live_short", "malformed"],
      [secret.replace("tk_live_", "tk_test_"), "malformed"],
      [unknown, "unknown"],
      [revokedSecret, "revoked"],
      [expiring, "expired"],
    ];
    for (const [key, reason] of cases) {
      const res = await listSessions(bearer(key));
      expect(res.status, reason).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect(await errorOf(res)).toMatchObject({ code: "invalid_api_key", details: { reason } });
    }
    // Local mode does not fall back to its implicit user when a key fails.
    const write = await sessionRoute.POST(req("POST", "/api/session", {}, bearer(typo)), undefined);
    expect(write.status).toBe(401);
  });

  it("the [...path] catch-all answers 404 to any valid key", async () => {
    const { secret: readOnly } = await createKey({ name: "reader", scopes: ["read"] });
    const res = await unknownRoute.POST(req("POST", "/api/nope", {}, bearer(readOnly)), { params: Promise.resolve({ path: ["nope"] }) });
    expect(res.status).toBe(404);
  });
});

describe("scopes", () => {
  const keys: Record<"read" | "write" | "admin", string> = { read: "", write: "", admin: "" };
  let sessionId: string;

  beforeAll(async () => {
    for (const scope of ["read", "write", "admin"] as const) keys[scope] = (await createKey({ name: `${scope} only`, scopes: [scope] })).secret;
    sessionId = (await newSession({ title: "scoped" })).id;
  });

  /** One route of each class: a read, a write, a send, and the admin routes (keys, settings). */
  const CALLS: [string, "read" | "write" | "admin", (headers: Record<string, string>) => Promise<Response>][] = [
    ["GET /api/session", "read", (hd) => listSessions(hd)],
    ["GET /api/context/status", "read", (hd) => statusRoute.GET(req("GET", `/api/context/status?session_id=${sessionId}`, undefined, hd), undefined)],
    ["GET /api/context/settings", "read", (hd) => settingsRoute.GET(req("GET", "/api/context/settings", undefined, hd), undefined)],
    ["POST /api/session", "write", (hd) => sessionRoute.POST(req("POST", "/api/session", { title: "w" }, hd), undefined)],
    ["POST /api/context/templates", "write", (hd) => templatesRoute.POST(req("POST", "/api/context/templates", { name: `t ${Math.random()}`, body: "Summarize briefly." }, hd), undefined)],
    ["POST /api/session/{id}/messages", "write", (hd) => postMessage(sessionId, { content: "hello" }, { accept: "application/json", ...hd })],
    ["GET /api/keys", "admin", (hd) => keysRoute.GET(req("GET", "/api/keys", undefined, hd), undefined)],
    ["POST /api/keys", "admin", (hd) => keysRoute.POST(req("POST", "/api/keys", { name: "minted", scopes: ["read"] }, hd), undefined)],
    ["DELETE /api/keys/{id}", "admin", (hd) => revoke("6f1c2b4e-0000-4000-8000-000000000000", hd)],
    ["PUT /api/context/settings", "admin", (hd) => settingsRoute.PUT(req("PUT", "/api/context/settings", { compaction_threshold: 0.8 }, hd), undefined)],
  ];

  it.each(CALLS)("%s needs %s", async (label, needed, call) => {
    for (const scope of ["read", "write", "admin"] as const) {
      const res = await call(bearer(keys[scope]));
      const allowed = scope === needed || scope === "admin";
      if (allowed) {
        // Whatever the route answers, it is no refusal of the caller (the DELETE of an unknown id is a 404).
        expect([401, 403, 429], `${label}: ${scope} key got ${res.status}`).not.toContain(res.status);
      } else {
        expect(res.status, `${scope} key`).toBe(403);
        expect(res.headers.get("www-authenticate")).toMatch(new RegExp(`^Bearer error="insufficient_scope", error_description="This API key lacks the '${needed}' scope [^"]*", scope="${needed}"$`));
        const err = await errorOf(res);
        expect(err).toMatchObject({ code: "insufficient_scope", details: { required_scope: needed, key_scopes: [scope] } });
        expect(err.message).toContain(`'${needed}'`);
      }
    }
    // The browser (here local mode's user) holds every scope.
    expect((await call({})).status).not.toBe(403);
  });

  it("a refused write changes nothing", async () => {
    const before = (await history(sessionId)).messages.length;
    expect((await postMessage(sessionId, { content: "not allowed" }, bearer(keys.read))).status).toBe(403);
    expect((await history(sessionId)).messages.length).toBe(before);
  });
});

describe("rate limits", () => {
  it("counts each key apart from the others and from the browser, with RateLimit-* headers on every answer", async () => {
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "5";
    const { secret: one } = await createKey({ name: "limited one", scopes: ["read"] });
    const { secret: two } = await createKey({ name: "limited two", scopes: ["read"] });
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await listSessions(bearer(one));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);

    const refused = await listSessions(bearer(one));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(11);
    expect(refused.headers.get("ratelimit-limit")).toBe("5");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    // Full again in a minute, less what drained while the burst ran.
    expect(Number(refused.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(50);
    expect(Number(refused.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
    expect(await errorOf(refused)).toMatchObject({
      code: "rate_limited",
      details: { bucket: "requests", limit: 5, window_seconds: 60, per: "key" },
    });
    // Security headers stay on refusals too.
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");

    expect((await listSessions(bearer(two))).status).toBe(200);
    const browser = await listSessions({});
    expect(browser.status).toBe(200);
    expect(browser.headers.get("ratelimit-limit")).toBe("5");
  });

  it("lets a refused client in after the Retry-After it was given, since refusals cost nothing", async () => {
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "60";
    const { secret } = await createKey({ name: "patient", scopes: ["read"] });
    const statuses = await Promise.all(Array.from({ length: 64 }, () => listSessions(bearer(secret)).then((r) => r.status)));
    // The whole burst fits; a busy machine may take long enough for a slot or two to refill meanwhile.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(60);
    let refused = await listSessions(bearer(secret));
    for (let i = 0; i < 10 && refused.status === 200; i++) refused = await listSessions(bearer(secret));
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBe(1);
    await new Promise((r) => setTimeout(r, wait * 1000 + 50));
    expect((await listSessions(bearer(secret))).status).toBe(200);
  });

  it("a request refused for its scope, or by a revoked key, takes nothing from the key's bucket", async () => {
    const { secret } = await createKey({ name: "reader, limited", scopes: ["read"] });
    const { key: gone, secret: goneSecret } = await createKey({ name: "revoked, limited", scopes: ["read"] });
    await revoke(gone.id);
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "2";
    for (let i = 0; i < 3; i++) expect((await sessionRoute.POST(req("POST", "/api/session", {}, bearer(secret)), undefined)).status).toBe(403);
    const first = await listSessions(bearer(secret));
    expect([first.status, first.headers.get("ratelimit-remaining")]).toEqual([200, "1"]);
    expect((await listSessions(bearer(secret))).status).toBe(200);
    expect((await listSessions(bearer(secret))).status).toBe(429);
    expect((await listSessions(bearer(goneSecret))).status).toBe(401);
    const [bucket] = await h.db.transaction((tx) => tx.query("select 1 from rate_limits where key_id = $1", [gone.id]));
    expect(bucket).toBeUndefined();
  });

  it("limits sends apart from requests, reports the tighter bucket, and a refused send saves nothing and counts as nothing", async () => {
    const { secret } = await createKey({ name: "sender", scopes: ["read", "write"] });
    const session = await newSession({ title: "sends" });
    process.env.THREADKEEPER_SEND_LIMIT_PER_MINUTE = "2";
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "4";
    const first = await sendJson(session.id, "one", bearer(secret));
    expect(first.res.status).toBe(201);
    // The sends bucket has 1 left, the requests bucket 3: the one closer to refusing is reported.
    expect([first.res.headers.get("ratelimit-limit"), first.res.headers.get("ratelimit-remaining")]).toEqual(["2", "1"]);
    expect((await sendJson(session.id, "two", bearer(secret))).res.status).toBe(201);
    // Counted in the database: the local user's own requests are limited to 4 a minute here too.
    const count = async () =>
      (await h.db.transaction((tx) => tx.query("select 1 from messages where session_id = $1", [session.id]))).length;
    const before = await count();
    const third = await sendJson(session.id, "three", bearer(secret));
    expect(third.res.status).toBe(429);
    expect(third.body.error).toMatchObject({ code: "rate_limited", details: { bucket: "sends", limit: 2 } });
    expect(third.res.headers.get("retry-after")).toBeTruthy();
    expect(await count()).toBe(before);
    // Other requests of the same key go on; the refused send took nothing from the requests bucket.
    const read = await listSessions(bearer(secret));
    expect(read.status).toBe(200);
    expect([read.headers.get("ratelimit-limit"), read.headers.get("ratelimit-remaining")]).toEqual(["4", "1"]);
  });

  it("0 turns a limit off: no accounting and no headers", async () => {
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "0";
    const res = await listSessions({});
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });
});

describe("the daily token budget", () => {
  it("puts today's tokens and the budget in the status, refuses a send beyond it with 429 budget_exhausted, and saves nothing", async () => {
    const session = await newSession({ title: "budget" });
    const status0 = await (await statusRoute.GET(req("GET", `/api/context/status?session_id=${session.id}`), undefined)).json();
    expect(status0).toMatchObject({ daily_token_budget: null });
    const before = (status0 as { tokens_today: number }).tokens_today;

    process.env.THREADKEEPER_DAILY_TOKEN_BUDGET = "1000000";
    const sent = await sendJson(session.id, "Count my tokens, please.");
    expect(sent.res.status).toBe(201);
    await idle(h, session.id);
    const [{ billed }] = await h.db.transaction((tx) =>
      tx.query<{ billed: number }>(
        `select sum(input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens)::float8 as billed
         from llm_calls where user_id = $1 and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
        [LOCAL_USER_ID],
      ),
    );
    expect(billed).toBeGreaterThan(before);
    const status1 = await (await statusRoute.GET(req("GET", `/api/context/status?session_id=${session.id}`), undefined)).json();
    expect(status1).toMatchObject({ tokens_today: billed, daily_token_budget: 1_000_000 });

    process.env.THREADKEEPER_DAILY_TOKEN_BUDGET = String(billed);
    const messages = (await history(session.id)).messages.length;
    const refused = await sendJson(session.id, "One more?");
    expect(refused.res.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "budget_exhausted", details: { tokens_today: billed, daily_token_budget: billed } });
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await history(session.id)).messages.length).toBe(messages);
    // Only sends: reading and everything else goes on.
    expect((await statusRoute.GET(req("GET", `/api/context/status?session_id=${session.id}`), undefined)).status).toBe(200);

    process.env.THREADKEEPER_DAILY_TOKEN_BUDGET = String(billed + 1);
    expect((await sendJson(session.id, "Now it fits.")).res.status).toBe(201);
  });
});
