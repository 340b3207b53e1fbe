// Prompt caching and cost, end to end through the real SDK and the fake's prompt cache: the
// breakpoints sent, the usage recorded per call (replies, titles, summaries), the session's
// cost in the status, and one token figure across status, picker and checkpoints.
import { describe, expect, it } from "vitest";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as recentRoute from "@/app/api/session/recent/route";
import type { SessionSummaryJson } from "@/lib/contract";
import { costUsd, requireModel } from "@/lib/models";
import { contextStatus, idle, newSession, prose, req, sendJson, useHarness } from "./harness";

const MODEL = "claude-sonnet-4-5";
const h = useHarness({ model: MODEL });

interface CallRow {
  kind: string;
  model: string;
  turn_seq: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  cache_breakpoints: number;
  estimated_input_tokens: number | null;
}

const calls = (sessionId: string) =>
  h.db.transaction((tx) => tx.query<CallRow>("select * from llm_calls where session_id = $1 order by created_at, turn_seq", [sessionId]));

type Block = { cache_control?: unknown };
const chatBodies = () =>
  h.fake.requests
    .filter((r) => r.path === "/v1/messages" && (r.body?.max_tokens as number) > 1000)
    .map((r) => r.body as { system: Block[]; messages: { content: Block[] }[] });
const breakpointsOf = (body: { system: Block[]; messages: { content: Block[] }[] }) =>
  [...body.system, ...body.messages.flatMap((m) => m.content)].filter((b) => b.cache_control).length;

async function chat(sessionId: string, turns: number) {
  for (let i = 0; i < turns; i++) {
    await sendJson(sessionId, `Question ${i}: ${prose(400, i)}`);
    await idle(h, sessionId);
  }
}

describe("prompt caching", () => {
  it("sends breakpoints and reads most of each later request from the cache", async () => {
    const s = await newSession();
    await chat(s.id, 6);
    const bodies = chatBodies();
    expect(bodies).toHaveLength(6);
    for (const b of bodies) expect(breakpointsOf(b)).toBeLessThanOrEqual(4);
    expect(breakpointsOf(bodies[5])).toBeGreaterThanOrEqual(2);

    const chats = (await calls(s.id)).filter((c) => c.kind === "chat");
    expect(chats).toHaveLength(6);
    // The first requests are below Sonnet's 1,024-token minimum; from the fourth on, the
    // previous request's prefix is read.
    for (const c of chats.slice(3)) {
      const input = c.input_tokens + c.cache_creation_input_tokens + c.cache_read_input_tokens;
      expect(c.cache_read_input_tokens / input).toBeGreaterThan(0.6);
      expect(c.cache_breakpoints).toBeGreaterThanOrEqual(2);
      expect(c.estimated_input_tokens).toBeGreaterThan(0);
    }
  });

  it("THREADKEEPER_PROMPT_CACHING=off sends none and reads nothing", async () => {
    process.env.THREADKEEPER_PROMPT_CACHING = "off";
    try {
      const s = await newSession();
      await chat(s.id, 3);
      for (const b of chatBodies()) expect(breakpointsOf(b)).toBe(0);
      for (const c of await calls(s.id)) expect(c.cache_read_input_tokens + c.cache_creation_input_tokens).toBe(0);
    } finally {
      delete process.env.THREADKEEPER_PROMPT_CACHING;
    }
  });
});

describe("usage and cost", () => {
  it("records every billed call with its cost, and the status sums them with the cache share", async () => {
    const s = await newSession();
    await chat(s.id, 4);
    const compact = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compact.status).toBe(201);
    await idle(h, s.id);

    const rows = await calls(s.id);
    expect(rows.map((r) => r.kind).sort()).toEqual(["chat", "chat", "chat", "chat", "summary", "title"]);
    const model = requireModel(MODEL);
    for (const r of rows.filter((x) => x.kind === "chat")) expect(r.cost_usd).toBeCloseTo(costUsd(model, r), 12);
    expect(rows.find((r) => r.kind === "title")).toMatchObject({ model: "claude-haiku-5-5", turn_seq: 1 });

    const st = await contextStatus(s.id);
    const total = rows.reduce((n, r) => n + r.cost_usd, 0);
    expect(st.cost_usd).toBeCloseTo(total, 12);
    const billed = rows.reduce((n, r) => n + r.input_tokens + r.cache_creation_input_tokens + r.cache_read_input_tokens, 0);
    const read = rows.reduce((n, r) => n + r.cache_read_input_tokens, 0);
    expect(st.cache_read_share).toBeCloseTo(read / billed, 10);
    expect(st.cache_read_share).toBeGreaterThan(0.15);

    // The day's rollup agrees with the calls.
    const [day] = await h.db.transaction((tx) =>
      tx.query<{ requests: number; cost: number }>(
        "select sum(requests)::int as requests, sum(cost_usd) as cost from llm_usage_daily where session_id = $1",
        [s.id],
      ),
    );
    expect(day.requests).toBe(rows.length);
    expect(day.cost).toBeCloseTo(total, 12);
  });
});

describe("one token figure", () => {
  it("status, the session picker and a checkpoint show the same number for the same session", async () => {
    const s = await newSession({ title: "One figure" });
    await chat(s.id, 2);
    // Offline turns leave no measurement, so the figure is the calibrated estimate: the case
    // where picker and status once disagreed (1.1 versus the model family's 1.4).
    delete process.env.ANTHROPIC_API_KEY;
    await sendJson(s.id, prose(300, 9));
    await idle(h, s.id);

    const st = await contextStatus(s.id);
    const recent = await recentRoute.GET(req("GET", "/api/session/recent?limit=200"), undefined);
    const picked = ((await recent.json()) as { sessions: SessionSummaryJson[] }).sessions.find((x) => x.id === s.id);
    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "now" }), undefined);
    const { checkpoint } = (await saved.json()) as { checkpoint: { token_count: number } };
    expect(picked?.current_tokens).toBe(st.current_tokens);
    expect(checkpoint.token_count).toBe(st.current_tokens);

    // And for a session never measured at all, on a model whose initial factor is not 1.1.
    process.env.THREADKEEPER_MODEL = "claude-sonnet-5-5";
    const fresh = await newSession();
    await sendJson(fresh.id, prose(200, 3));
    await idle(h, fresh.id);
    const st2 = await contextStatus(fresh.id);
    expect(st2.calibration_factor).toBe(1.4);
    const recent2 = await recentRoute.GET(req("GET", "/api/session/recent?limit=200"), undefined);
    const picked2 = ((await recent2.json()) as { sessions: SessionSummaryJson[] }).sessions.find((x) => x.id === fresh.id);
    expect(picked2?.current_tokens).toBe(st2.current_tokens);
  });
});
