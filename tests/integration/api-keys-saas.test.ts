// API keys in SaaS mode: a signed-in user (access token or browser cookie) makes keys, each key
// acts as its owner and nobody else, from any origin and without a sign-in; browser writes
// stay under the CSRF rule; and the per-user rate limit covers a user's token and cookie
// together while each key counts apart. Real supabase-js against the fake Supabase Auth server.
import { afterEach, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as sessionRoute from "@/app/api/session/route";
import type { ApiKeyJson, CreatedApiKeyJson } from "@/lib/contract";
import { req, useHarness } from "./harness";
import { sessionCookie, signUp, useSaas } from "./saas";

useHarness({ online: false });
const saas = useSaas();

const SAME_ORIGIN = { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" };
const FOREIGN = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

async function createKey(headers: Record<string, string>, scopes = ["read", "write"]): Promise<Response> {
  return keysRoute.POST(req("POST", "/api/keys", { name: "integration", scopes }, headers), undefined);
}

async function titles(headers: Record<string, string>): Promise<string[]> {
  const res = await sessionRoute.GET(req("GET", "/api/session", undefined, headers), undefined);
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessions: { title: string }[] }).sessions.map((s) => s.title);
}

afterEach(() => {
  delete process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE;
});

describe("SaaS mode: keys act as their owner", () => {
  it("a key made with an access token reads and writes as that user, from any origin, without signing in", async () => {
    const ada = await signUp(saas, "ada");
    const bob = await signUp(saas, "bob");
    await sessionRoute.POST(req("POST", "/api/session", { title: "Ada's" }, ada.bearer), undefined);
    await sessionRoute.POST(req("POST", "/api/session", { title: "Bob's" }, bob.bearer), undefined);
    const res = await createKey(ada.bearer);
    expect(res.status).toBe(201);
    const { secret } = (await res.json()) as CreatedApiKeyJson;
    const key = { authorization: `Bearer ${secret}` };

    expect(await titles(key)).toEqual(["Ada's"]);
    const created = await sessionRoute.POST(req("POST", "/api/session", { title: "by Ada's key" }, { ...key, ...FOREIGN, "content-type": "text/plain" }), undefined);
    expect(created.status).toBe(201);
    expect((await titles(ada.bearer)).sort()).toEqual(["Ada's", "by Ada's key"]);
    expect(await titles(bob.bearer)).toEqual(["Bob's"]);
    // Bob's own list of keys holds none of Ada's.
    const bobs = (await (await keysRoute.GET(req("GET", "/api/keys", undefined, bob.bearer), undefined)).json()) as { keys: ApiKeyJson[] };
    expect(bobs.keys).toEqual([]);
  });

  it("in the browser, keys are made like any write: JSON from the same origin, never from another site", async () => {
    const user = await signUp(saas, "browser");
    const cookie = await sessionCookie(saas, user.email);
    const foreign = await createKey({ cookie, ...FOREIGN });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("csrf_rejected");
    const own = await createKey({ cookie, ...SAME_ORIGIN }, ["admin"]);
    expect(own.status).toBe(201);
    const { secret } = (await own.json()) as CreatedApiKeyJson;
    // An admin key can manage keys itself.
    const list = await keysRoute.GET(req("GET", "/api/keys", undefined, { authorization: `Bearer ${secret}` }), undefined);
    expect(((await list.json()) as { keys: ApiKeyJson[] }).keys.map((k) => k.scopes)).toEqual([["admin"]]);
  });

  it("a user's access token and cookie share one per-user limit; each of their keys counts apart", async () => {
    const user = await signUp(saas, "limited");
    const cookie = await sessionCookie(saas, user.email);
    // Set first, so every request of this user costs the same 20 s and the count is exact.
    process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE = "3";
    const { secret } = (await (await createKey(user.bearer, ["read"])).json()) as CreatedApiKeyJson;
    const list = (headers: Record<string, string>) => sessionRoute.GET(req("GET", "/api/session", undefined, headers), undefined);
    const first = await list({ cookie });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect((await list(user.bearer)).status).toBe(200);
    const refusedCookie = await list({ cookie });
    expect(refusedCookie.status).toBe(429);
    expect(((await refusedCookie.json()) as { error: { details: { per: string } } }).error.details.per).toBe("user");
    expect((await list(user.bearer)).status).toBe(429);
    const byKey = await list({ authorization: `Bearer ${secret}` });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get("ratelimit-remaining")).toBe("2");
  });
});
