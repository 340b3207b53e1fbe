// API keys and rate limits across two real `next start` processes on one PostgreSQL 15
// database: a key made on one instance works on the other, a revocation on one holds on the
// other at once, and one key's requests split between both instances share one limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyJson, CreatedApiKeyJson, SessionJson } from "@/lib/contract";
import { api, startApp, type AppInstance } from "./app";
import { pgContext, readyPg } from "./context";

const available = pgContext().available;

const LIMIT = 20;
const SEND_LIMIT = 3;

interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe.skipIf(!available)("real PostgreSQL 15: keys and rate limits shared by two app instances", () => {
  let a: AppInstance;
  let b: AppInstance;

  beforeAll(async () => {
    const pg = readyPg();
    // Offline responder: sends need no Anthropic server here.
    const env = { THREADKEEPER_RATE_LIMIT_PER_MINUTE: String(LIMIT), THREADKEEPER_SEND_LIMIT_PER_MINUTE: String(SEND_LIMIT), THREADKEEPER_OFFLINE_DELAY_MS: "0" };
    [a, b] = await Promise.all([startApp("limits A", pg.appUrl, env), startApp("limits B", pg.appUrl, env)]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const explain = (what: string) => `${what}\n--- A ---\n${a.output().slice(-3000)}\n--- B ---\n${b.output().slice(-3000)}`;

  async function newKey(on: AppInstance, scopes: string[]): Promise<CreatedApiKeyJson> {
    const res = await api<CreatedApiKeyJson>(on, "POST", "/api/keys", { name: `pg ${scopes.join("+")}`, scopes });
    expect(res.status, explain(JSON.stringify(res.body))).toBe(201);
    return res.body;
  }

  it(`one key's requests split across both instances get exactly ${LIMIT} through, the rest 429 with headers`, async () => {
    const { secret } = await newKey(a, ["read"]);
    const auth = { authorization: `Bearer ${secret}` };
    const results = await Promise.all(
      Array.from({ length: LIMIT + 10 }, (_, i) => api<unknown>(i % 2 === 0 ? a : b, "GET", "/api/session?limit=1", undefined, auth)),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok.length, explain(JSON.stringify(results.map((r) => r.status)))).toBe(LIMIT);
    expect(refused.length).toBe(10);
    // Remaining counts down through every value once, whichever instance answered.
    expect(ok.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: LIMIT }, (_, i) => i),
    );
    for (const r of refused) {
      expect((r.body as ErrorEnvelope).error.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(r.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(r.headers.get("ratelimit-remaining")).toBe("0");
    }
    // Another key, and the instance's own (local) user, have buckets of their own.
    const other = await newKey(b, ["read"]);
    expect((await api(a, "GET", "/api/session?limit=1", undefined, { authorization: `Bearer ${other.secret}` })).status).toBe(200);
  });

  it(`sends are limited to ${SEND_LIMIT} a minute per key across both instances`, async () => {
    const { secret } = await newKey(b, ["read", "write"]);
    const auth = { authorization: `Bearer ${secret}` };
    const created = await api<{ session: SessionJson }>(a, "POST", "/api/session", { title: "pg sends" }, auth);
    expect(created.status).toBe(201);
    const id = created.body.session.id;
    const results = [];
    // One at a time: the turn lease would refuse concurrent sends to one session with 409.
    for (let i = 0; i < SEND_LIMIT + 2; i++) {
      results.push(await api<ErrorEnvelope>(i % 2 === 0 ? b : a, "POST", `/api/session/${id}/messages`, { content: `send ${i}` }, auth));
    }
    expect(results.map((r) => r.status)).toEqual([...Array.from({ length: SEND_LIMIT }, () => 201), 429, 429]);
    expect(results[SEND_LIMIT].body.error.details).toMatchObject({ bucket: "sends", limit: SEND_LIMIT, per: "key" });
  });

  it("a key revoked on one instance is refused on the other at once, and its last use is recorded", async () => {
    const { key, secret } = await newKey(a, ["read"]);
    const auth = { authorization: `Bearer ${secret}` };
    expect((await api(b, "GET", "/api/session?limit=1", undefined, auth)).status).toBe(200);
    const listed = await api<{ keys: ApiKeyJson[] }>(a, "GET", "/api/keys");
    expect(listed.body.keys.find((k) => k.id === key.id)?.last_used_at).toBeTruthy();
    expect((await api(b, "DELETE", `/api/keys/${key.id}`)).status).toBe(204);
    const after = await api<ErrorEnvelope>(a, "GET", "/api/session?limit=1", undefined, auth);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ code: "invalid_api_key", details: { reason: "revoked" } });
  });
});
