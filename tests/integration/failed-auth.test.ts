// Failed API keys per client address, refused before any database lookup (lib/limits/failed-auth.ts):
// a flood of unknown keys from one address gets 429s after its burst, in our shape and in
// Anthropic's on the drop-in; another address, and a key that already worked, are not held
// back; the instance's own ceiling bounds addresses a client invents; THREADKEEPER_TRUST_PROXY
// says which X-Forwarded-For entry is the client. The real routes on an in-memory PGlite.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as sessionRoute from "@/app/api/session/route";
import * as dropInRoute from "@/app/api/anthropic/v1/messages/route";
import type { CreatedApiKeyJson } from "@/lib/contract";
import { generateKey } from "@/lib/keys/format";
import { ADDRESS_FAILURES, INSTANCE_FAILURES, resetFailedAuth } from "@/lib/limits/failed-auth";
import { req, useHarness } from "./harness";

useHarness({ online: false });

beforeEach(() => resetFailedAuth());
afterEach(() => {
  delete process.env.THREADKEEPER_TRUST_PROXY;
});

const listSessions = (secret: string, forwardedFor?: string) =>
  sessionRoute.GET(req("GET", "/api/session", undefined, { authorization: `Bearer ${secret}`, ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) }), undefined);

async function createKey(): Promise<string> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: "integration", scopes: ["read", "write"] }), undefined);
  if (res.status !== 201) throw new Error(`create key: ${res.status}`);
  return ((await res.json()) as CreatedApiKeyJson).secret;
}

async function codes(responses: Response[]): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

describe("failed API keys per client address", () => {
  it("answers 500 unknown keys from one address with its burst of 401s, then 429s with Retry-After, concurrent or not", async () => {
    const flood = await Promise.all(Array.from({ length: 500 }, () => listSessions(generateKey().secret, "198.51.100.7")));
    // Each 401 is one lookup; the rest never reached the database.
    expect(await codes(flood)).toEqual({ 401: ADDRESS_FAILURES.burst, 429: 500 - ADDRESS_FAILURES.burst });
    const refused = flood.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const { error } = (await refused.json()) as { error: { code: string; details: { per: string } } };
    expect(error).toMatchObject({ code: "too_many_auth_failures", details: { per: "address" } });
  });

  it("holds no other address back, nor a key that already worked from the flooded one", async () => {
    const good = await createKey();
    expect((await listSessions(good, "198.51.100.8")).status).toBe(200);
    for (let i = 0; i < ADDRESS_FAILURES.burst + 5; i++) await listSessions(generateKey().secret, "198.51.100.8");
    expect((await listSessions(generateKey().secret, "198.51.100.8")).status).toBe(429);
    expect((await listSessions(good, "198.51.100.8")).status).toBe(200);
    expect((await listSessions(generateKey().secret, "198.51.100.9")).status).toBe(401);
    // A typo (bad checksum) never reaches the database: it answers 401 and counts nothing.
    expect((await listSessions(`${good.slice(0, -1)}${good.endsWith("A") ? "B" : "A"}`, "198.51.100.8")).status).toBe(401);
  });

  it("looks one key up once at a time: a new key's first burst is let in whole, one unknown key's is held to the burst", async () => {
    const good = await createKey();
    const burst = await Promise.all(Array.from({ length: 100 }, () => listSessions(good, "198.51.100.20")));
    expect(await codes(burst)).toEqual({ 200: 100 });
    const guess = generateKey().secret;
    const guesses = await Promise.all(Array.from({ length: 100 }, () => listSessions(guess, "198.51.100.21")));
    expect(await codes(guesses)).toEqual({ 401: ADDRESS_FAILURES.burst, 429: 100 - ADDRESS_FAILURES.burst });
  });

  it("bounds the whole instance, so addresses a client invents gain nothing", async () => {
    const flood = [];
    for (let i = 0; i < INSTANCE_FAILURES.burst + 20; i++) flood.push(await listSessions(generateKey().secret, `203.0.113.${i % 250}, 10.0.${i}.1`));
    // The burst, and whatever the instance's bucket refilled while the loop ran (a few a second).
    const counted = await codes(flood);
    expect(counted[401]).toBeGreaterThanOrEqual(INSTANCE_FAILURES.burst);
    expect(counted[429]).toBeGreaterThan(0);
    const last = (await flood.at(-1)?.json()) as { error: { code: string; details: { per: string } } };
    expect(last.error).toMatchObject({ code: "too_many_auth_failures", details: { per: "instance" } });
  });

  it("answers the drop-in in Anthropic's shape", async () => {
    const call = () =>
      dropInRoute.POST(
        req("POST", "/api/anthropic/v1/messages", { model: "claude-haiku-4-5", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }, {
          "x-api-key": generateKey().secret,
          "x-forwarded-for": "192.0.2.44",
        }),
        undefined,
      );
    for (let i = 0; i < ADDRESS_FAILURES.burst; i++) expect((await call()).status).toBe(401);
    const res = await call();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });

  it("reads the client from X-Forwarded-For as far as THREADKEEPER_TRUST_PROXY proxies vouch for it", async () => {
    process.env.THREADKEEPER_TRUST_PROXY = "2";
    // The client claims many addresses; the outer proxy saw 192.0.2.10, the inner one the outer.
    for (let i = 0; i < ADDRESS_FAILURES.burst; i++) await listSessions(generateKey().secret, `10.9.9.${i}, 192.0.2.10, 172.16.0.2`);
    expect((await listSessions(generateKey().secret, "10.9.9.200, 192.0.2.10, 172.16.0.2")).status).toBe(429);
    expect((await listSessions(generateKey().secret, "192.0.2.10, 192.0.2.11, 172.16.0.2")).status).toBe(401);
  });
});
