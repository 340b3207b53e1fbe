// GET /api/metrics through its real route: who may read it (the operator's token in either mode,
// no user in SaaS mode), that it is Prometheus's text format, and that real work moves the
// counters: sends through the real messages route (Claude is the fake Anthropic server), a failing
// call, a compaction, a refused send, the webhook queue.
import { afterEach, describe, expect, it, vi } from "vitest";
import * as metricsRoute from "@/app/api/metrics/route";
import * as keysRoute from "@/app/api/keys/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as webhooksRoute from "@/app/api/webhooks/route";
import * as checkpointRoute from "@/app/api/checkpoint/save/route";
import type { CreatedApiKeyJson } from "@/lib/contract";
import { idle, newSession, prose, req, sendJson, useHarness } from "./harness";
import { signUp, useSaas } from "./saas";

const h = useHarness();

const TOKEN = "metrics-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e";

afterEach(() => {
  delete process.env.THREADKEEPER_SEND_LIMIT_PER_MINUTE;
  delete process.env.THREADKEEPER_METRICS_TOKEN;
});

async function scrape(headers: Record<string, string> = {}): Promise<{ status: number; type: string; text: string }> {
  const res = await metricsRoute.GET(req("GET", "/api/metrics", undefined, headers), undefined);
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** Every sample of the exposition text: `name{labels}` → value. */
async function samples(): Promise<Map<string, number>> {
  const { status, text } = await scrape();
  expect(status).toBe(200);
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const value = (s: Map<string, number>, key: string) => s.get(key) ?? 0;

const codeOf = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code;

async function createKey(scopes: string[]): Promise<string> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: `metrics ${scopes.join()}`, scopes }), undefined);
  return ((await res.json()) as CreatedApiKeyJson).secret;
}

describe("GET /api/metrics", () => {
  it("answers Prometheus text with every metric named, the process's among them", async () => {
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      "threadkeeper_turns_total",
      "threadkeeper_turn_duration_seconds",
      "threadkeeper_claude_requests_total",
      "threadkeeper_claude_request_duration_seconds",
      "threadkeeper_compactions_total",
      "threadkeeper_tokens_total",
      "threadkeeper_rate_limit_refusals_total",
      "threadkeeper_webhook_queue_depth",
      "threadkeeper_db_pool",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    const s = await samples();
    expect(value(s, 'threadkeeper_db_pool{state="max"}')).toBe(1);
    expect(s.has('threadkeeper_turns_total{outcome="failed"}')).toBe(true);
  });

  it("counts a turn, its Claude call, its duration and its tokens", async () => {
    const before = await samples();
    const s = await newSession();
    const { res, body } = await sendJson(s.id, "[[reply:Counted.]] Count this one, please.");
    expect(res.status).toBe(201);
    expect(body.assistant_message?.text).toBe("Counted.");
    await idle(h, s.id);
    const after = await samples();
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved('threadkeeper_turns_total{outcome="complete"}')).toBe(1);
    expect(moved("threadkeeper_turn_duration_seconds_count")).toBe(1);
    expect(moved('threadkeeper_claude_requests_total{kind="chat",status="ok"}')).toBe(1);
    expect(moved('threadkeeper_claude_request_duration_seconds_count{kind="chat"}')).toBe(1);
    // The fake bills what it reads and writes; the reply is a few tokens.
    expect(moved('threadkeeper_tokens_total{direction="input"}') + moved('threadkeeper_tokens_total{direction="cache_write"}')).toBeGreaterThan(0);
    expect(moved('threadkeeper_tokens_total{direction="output"}')).toBeGreaterThan(0);
    // The first turn names the session with its own call.
    expect(moved('threadkeeper_claude_requests_total{kind="title",status="ok"}')).toBe(1);
  });

  it("counts a failed turn and its failed call by what went wrong", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:ok]] First, so the next one is not the naming turn.");
    await idle(h, s.id);
    const before = await samples();
    h.fake.enqueue({ kind: "error", status: 400, message: "bad request, on purpose" });
    const { res } = await sendJson(s.id, "This one fails.");
    expect(res.status).toBe(502);
    await idle(h, s.id);
    const after = await samples();
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved('threadkeeper_turns_total{outcome="failed"}')).toBe(1);
    expect(moved('threadkeeper_claude_requests_total{kind="chat",status="400"}')).toBe(1);
  });

  it("counts a compaction by method and trigger, and the summarizer's call", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false } });
    for (let i = 0; i < 4; i++) await sendJson(s.id, `[[reply:Noted.]] Turn ${i}: src/app/page${i}.tsx ${prose(400, i)}`);
    await idle(h, s.id);
    const before = await samples();
    const res = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(res.status, await res.clone().text()).toBe(201);
    const { compaction } = (await res.json()) as { compaction: { method: string } };
    const after = await samples();
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved(`threadkeeper_compactions_total{method="${compaction.method}",trigger="manual"}`)).toBe(1);
    if (compaction.method === "llm") expect(moved('threadkeeper_claude_requests_total{kind="summary",status="ok"}')).toBeGreaterThan(0);
  });

  it("counts a send refused by the per-minute limit", async () => {
    const s = await newSession();
    const before = await samples();
    // One send a minute (this file's earlier sends may have used it already): the second is refused.
    process.env.THREADKEEPER_SEND_LIMIT_PER_MINUTE = "1";
    const statuses: number[] = [];
    for (const content of ["[[reply:ok]] One.", "[[reply:ok]] Two, too soon."]) {
      statuses.push((await sendJson(s.id, content)).res.status);
      await idle(h, s.id);
    }
    expect(statuses.at(-1)).toBe(429);
    const refused = statuses.filter((x) => x === 429).length;
    const after = await samples();
    expect(value(after, 'threadkeeper_rate_limit_refusals_total{bucket="sends"}') - value(before, 'threadkeeper_rate_limit_refusals_total{bucket="sends"}')).toBe(refused);
  });

  it("reads the webhook queue's depth at scrape time", async () => {
    const before = value(await samples(), "threadkeeper_webhook_queue_depth");
    const hook = await webhooksRoute.POST(req("POST", "/api/webhooks", { url: "http://127.0.0.1:9/hook", events: ["checkpoint.created"] }), undefined);
    expect(hook.status).toBe(201);
    const s = await newSession();
    await sendJson(s.id, "[[reply:ok]] Something to checkpoint.");
    await idle(h, s.id);
    expect((await checkpointRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id }), undefined)).status).toBe(201);
    // Nothing sends deliveries in this test process: the queued one waits.
    expect(value(await samples(), "threadkeeper_webhook_queue_depth")).toBe(before + 1);
  });

  it("local mode: an API key without the admin scope is refused; an admin key may read it", async () => {
    const reader = await scrape({ authorization: `Bearer ${await createKey(["read", "write"])}` });
    expect(reader.status).toBe(403);
    expect(codeOf(reader.text)).toBe("insufficient_scope");
    const admin = await scrape({ authorization: `Bearer ${await createKey(["admin"])}` });
    expect(admin.status).toBe(200);
    expect(admin.text).toContain("threadkeeper_turns_total");
  });

  it("local mode with the metrics token set: the token reads it, a wrong one is 401, everything else as without it", async () => {
    process.env.THREADKEEPER_METRICS_TOKEN = TOKEN;
    const byToken = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(byToken.status).toBe(200);
    expect(byToken.text).toContain("# TYPE threadkeeper_turns_total counter");
    const wrong = await scrape({ authorization: `Bearer ${TOKEN.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect(codeOf(wrong.text)).toBe("invalid_metrics_token");
    expect((await scrape()).status).toBe(200);
    expect((await scrape({ authorization: `Bearer ${await createKey(["admin"])}` })).status).toBe(200);
    expect((await scrape({ authorization: `Bearer ${await createKey(["read"])}` })).status).toBe(403);
  });
});

describe("GET /api/metrics in SaaS mode", () => {
  const saas = useSaas();

  /** An admin key the user minted for their own account: what any signed-up user can do. */
  async function userAndAdminKey() {
    const user = await signUp(saas, "metrics");
    const res = await keysRoute.POST(req("POST", "/api/keys", { name: "my own admin key", scopes: ["admin"] }, user.bearer), undefined);
    expect(res.status).toBe(201);
    return { user, adminKey: { authorization: `Bearer ${((await res.json()) as CreatedApiKeyJson).secret}` } };
  }

  it("without the metrics token answers no user: admin keys and signed-in users get 403 naming the variable, bad credentials 401", async () => {
    const { user, adminKey } = await userAndAdminKey();
    for (const headers of [adminKey, user.bearer]) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(403);
      expect(codeOf(refused.text)).toBe("metrics_token_required");
      expect(refused.text).toContain("THREADKEEPER_METRICS_TOKEN");
      expect(refused.text).not.toContain("threadkeeper_turns_total");
    }
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ authorization: "Bearer tk_live_nope" })).status).toBe(401);
  });

  it("with the metrics token set: the token reads it; a wrong token, none, an admin key or a user's token is 401", async () => {
    const { user, adminKey } = await userAndAdminKey();
    process.env.THREADKEEPER_METRICS_TOKEN = TOKEN;
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
    );
    try {
      const byToken = await scrape({ authorization: `Bearer ${TOKEN}` });
      expect(byToken.status).toBe(200);
      expect(byToken.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(byToken.text).toContain("# TYPE threadkeeper_turns_total counter");
      for (const headers of [{ authorization: `Bearer ${TOKEN}x` }, { authorization: "Bearer x" }, {}, adminKey, user.bearer]) {
        const refused = await scrape(headers);
        expect(refused.status, JSON.stringify(headers)).toBe(401);
        expect(codeOf(refused.text)).toBe("invalid_metrics_token");
        expect(refused.text).not.toContain(TOKEN);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged.filter((line) => line.includes(TOKEN))).toEqual([]);
  });
});
