import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as compactRoute from "@/app/api/context/compact/route";
import * as undoRoute from "@/app/api/context/compact/[compaction_id]/undo/route";
import * as historyRoute from "@/app/api/context/history/[session_id]/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import * as templatesRoute from "@/app/api/context/templates/route";
import * as templateRoute from "@/app/api/context/templates/[id]/route";
import type { CompactionJson, ContextStatusJson, TemplateJson } from "@/lib/contract";
import { compactSession } from "@/lib/operations/compact";
import { LOCAL_USER_ID } from "@/lib/db";
import { contextStatus, history, idle, newSession, ofType, params, postMessage, prose, readSse, req, sendJson, useHarness } from "./harness";

const h = useHarness();
// These tests fill many sessions quickly; the sends-per-minute limit is another file's subject.
beforeAll(() => {
  process.env.THREADKEEPER_SEND_LIMIT_PER_MINUTE = "0";
});
afterAll(() => {
  delete process.env.THREADKEEPER_SEND_LIMIT_PER_MINUTE;
});

// 200K window, capacity 76K, threshold 80 % (60.8K), target 40 %.
const TIGHT = { output_reservation: 0.5, safety_buffer: 0.3 };

const PLANTED = [
  "We decided to use PGlite for the embedded mode.",
  "src/db/schema.ts",
  "Error: ECONNRESET while streaming the reply",
  "TODO: add retries to the uploader",
  "DATABASE_URL",
  "https://example.com/docs/rls",
];

/** A session filled to just above the threshold, with automatic compaction off while filling. */
async function filledSession(): Promise<string> {
  // No memories: those earlier tests' compactions saved would fill the window differently.
  const s = await newSession({ settings: { ...TIGHT, auto_compact: false, memory_budget: 0 } });
  await sendJson(s.id, "Project brief: build the sync service. Keep the API stable.");
  // Details are planted in turns 2–5; turn 6 is the latest and is kept verbatim.
  for (let i = 0; i < 5; i++) {
    const planted = i < 4 ? PLANTED[i] : "";
    const extra = i === 1 ? ` See ${PLANTED[5]} and set ${PLANTED[4]}=postgres://localhost/app.` : "";
    const { res } = await sendJson(s.id, `${planted}${extra}\n\n${prose(11_000, i)}`);
    expect(res.status).toBe(201);
  }
  await idle(h, s.id);
  const st = await contextStatus(s.id);
  expect(st.usage_percent).toBeGreaterThanOrEqual(80);
  expect(st.usage_percent).toBeLessThan(100);
  return s.id;
}

async function putSettings(sessionId: string, body: object) {
  const res = await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${sessionId}`, body), undefined);
  expect(res.status).toBe(200);
}

async function compact(body: object): Promise<Response> {
  return compactRoute.POST(req("POST", "/api/context/compact", body), undefined);
}

async function compactions(sessionId: string): Promise<CompactionJson[]> {
  const res = await historyRoute.GET(req("GET", `/api/context/history/${sessionId}`), params({ session_id: sessionId }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { compactions: CompactionJson[] }).compactions;
}

const messagesCalls = () => h.fake.requests.filter((r) => r.path === "/v1/messages");

describe("automatic compaction", () => {
  it("condenses old turns with a verified summary before the request that crosses the threshold", async () => {
    const id = await filledSession();
    await putSettings(id, { auto_compact: true });
    // The summarizer forgets most planted details; verification must put them back verbatim.
    h.fake.enqueue(
      { kind: "reply", text: "### Session Summary\nBuilding the sync service.\n\n### Key Decisions\n- We decided to use PGlite for the embedded mode." },
      { kind: "reply", text: "Noted." },
    );
    const events = await readSse(await postMessage(id, { content: "What next?" }));
    const [c] = ofType(events, "compaction");
    expect(c).toMatchObject({ trigger: "auto", method: "llm", status: "applied", from_turn: 2, can_undo: true });
    expect(c.retention_rate).toBe(1);
    expect(c.items_total).toBeGreaterThanOrEqual(PLANTED.length);
    for (const item of PLANTED) expect(c.summary).toContain(item);
    expect(c.summary).toContain("### Preserved details");
    expect(c.preserved_items.map((i) => i.text)).toContain("src/db/schema.ts");
    expect(c.post_tokens).toBeLessThan(c.pre_tokens);
    expect(c.reduction_percent).toBeGreaterThan(40);
    expect(c.cost_usd).toBeGreaterThan(0);
    expect(ofType(events, "assistant_message")[0].text).toBe("Noted.");

    // The reply's request carried the summary in the system prompt and no condensed turn.
    // The summary is its own system block after the stable prompt, so a compaction keeps the
    // prompt's cache entry and rewrites only from the summary on.
    const sent = messagesCalls().at(-1)?.body as { system: { text: string }[]; messages: { content: { text?: string }[] }[] };
    expect(sent.system.at(-1)?.text).toContain("<conversation_summary>");
    expect(sent.system.at(-1)?.text).toContain("src/db/schema.ts");
    expect(sent.system[0].text).not.toContain("<conversation_summary>");
    const texts = sent.messages.map((m) => m.content.map((b) => b.text ?? "").join(""));
    expect(texts[0]).toContain("Project brief");
    expect(texts.some((t) => t.includes(prose(11_000, 0)))).toBe(false);

    const page = await history(id);
    expect(page.messages.filter((m) => m.turn_seq === 1).every((m) => m.in_window)).toBe(true);
    expect(page.messages.filter((m) => m.turn_seq >= 2 && m.turn_seq <= c.through_turn).every((m) => !m.in_window)).toBe(true);
    expect(page.messages).toHaveLength(14); // nothing deleted

    const st = await contextStatus(id);
    expect(st.usage_percent).toBeLessThan(50);
    expect(st.breakdown.summary).toBeGreaterThan(0);
    expect((await compactions(id)).map((x) => x.id)).toEqual([c.id]);
  });

  it("falls back to the extractive summary when the summarizer errors", async () => {
    const id = await filledSession();
    h.fake.enqueue({ kind: "error", status: 500 }, { kind: "error", status: 500 });
    const res = await compact({ session_id: id });
    expect(res.status).toBe(201);
    const { compaction: c } = (await res.json()) as { compaction: CompactionJson };
    expect(c).toMatchObject({ method: "extractive", trigger: "manual", model: null });
    expect(c.fallback_reason).toMatch(/summarizer failed/);
    expect(c.summary).toContain("### Key Decisions");
    for (const item of PLANTED) expect(c.summary).toContain(item);
    expect(c.post_tokens).toBeLessThan(c.pre_tokens);
  });

  it("falls back when the summarizer times out", async () => {
    const id = await filledSession();
    process.env.THREADKEEPER_SUMMARY_TIMEOUT_MS = "300";
    try {
      h.fake.enqueue({ kind: "slow", delayMs: 3000, text: "too late" });
      const res = await compact({ session_id: id });
      expect(res.status).toBe(201);
      const { compaction: c } = (await res.json()) as { compaction: CompactionJson };
      expect(c.method).toBe("extractive");
      expect(c.duration_ms).toBeLessThan(3000);
    } finally {
      delete process.env.THREADKEEPER_SUMMARY_TIMEOUT_MS;
    }
  });

  it("summarizes in parts and merges them when the transcript exceeds one call", async () => {
    const id = await filledSession();
    process.env.THREADKEEPER_SUMMARY_CHUNK_TOKENS = "15000";
    try {
      const before = messagesCalls().length;
      const res = await compact({ session_id: id });
      expect(res.status).toBe(201);
      const { compaction: c } = (await res.json()) as { compaction: CompactionJson };
      expect(c.method).toBe("llm");
      // At least two parts plus the merge.
      expect(messagesCalls().length - before).toBeGreaterThanOrEqual(3);
      expect(c.retention_rate).toBe(1);
    } finally {
      delete process.env.THREADKEEPER_SUMMARY_CHUNK_TOKENS;
    }
  });

  it("bills the parts that answered when the summarizer fails part-way; the extractive summary stands in", async () => {
    const id = await filledSession();
    process.env.THREADKEEPER_SUMMARY_CHUNK_TOKENS = "15000";
    try {
      const before = messagesCalls().length;
      h.fake.enqueue({ kind: "reply", text: "Part one: the brief of the sync service." }, { kind: "error", status: 400, message: "scripted failure" });
      const res = await compact({ session_id: id });
      expect(res.status).toBe(201);
      const { compaction: c } = (await res.json()) as { compaction: CompactionJson };
      expect(c.method).toBe("extractive");
      expect(c.fallback_reason).toContain("scripted failure");
      expect(messagesCalls().length - before).toBe(2);
      const billed = await h.db.transaction((tx) =>
        tx.query<{ input_tokens: number; output_tokens: number; cost_usd: number }>(
          "select input_tokens, output_tokens, cost_usd from llm_calls where session_id = $1 and kind = 'summary'",
          [id],
        ),
      );
      expect(billed).toHaveLength(1);
      expect(billed[0].input_tokens).toBeGreaterThan(5_000);
      expect(c.cost_usd).toBeCloseTo(billed[0].cost_usd, 12);
    } finally {
      delete process.env.THREADKEEPER_SUMMARY_CHUNK_TOKENS;
    }
  });
});

describe("manual compaction", () => {
  it("refuses below the threshold unless forced, and passes instructions and the preset to the summarizer", async () => {
    const s = await newSession({ settings: TIGHT });
    for (let i = 0; i < 4; i++) await sendJson(s.id, `Turn ${i}: src/app/page${i}.tsx ${prose(300, i)}`);
    const refused = await compact({ session_id: s.id });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("below_threshold");

    const res = await compact({ session_id: s.id, force: true, instructions: "focus on the auth bug", preset: "debugging" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { compaction: CompactionJson; status: ContextStatusJson };
    expect(body.compaction).toMatchObject({ trigger: "manual", template: "debugging", instructions: "focus on the auth bug" });
    const call = messagesCalls().at(-1)?.body as { system: string; messages: { content: string }[] };
    expect(JSON.stringify(call.messages)).toContain("focus on the auth bug");
    expect(call.system.toLowerCase()).toContain("debug");
  });

  it("refuses, even forced, when what could be condensed is a few percent of what Claude is sent, and says how little", async () => {
    const s = await newSession({ settings: TIGHT });
    // Small early turns, then one long one: only the small ones could be condensed (the first
    // and the latest turn stay verbatim).
    for (let i = 0; i < 3; i++) await sendJson(s.id, `Turn ${i}: a short note about page${i}.`);
    await sendJson(s.id, `The long one: ${prose(1_500, 9)}`);
    const calls = messagesCalls().length;
    const refused = await compact({ session_id: s.id, force: true });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string; details: { tokens: number; percent: number; min_percent: number } } };
    expect(body.error.code).toBe("little_gain");
    expect(body.error.details.percent).toBeLessThan(10);
    expect(body.error.details.tokens).toBeGreaterThan(0);
    expect(body.error.message).toMatch(/^Only [\d,]+ tokens \([\d.]+% of what Claude is sent\) could be condensed/);
    // Nothing was summarized, and nothing counts against the cooldown.
    expect(messagesCalls().length).toBe(calls);
    const [row] = await h.db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from compaction_logs where session_id = $1", [s.id]));
    expect(row.n).toBe(0);
  });

  it("allows one manual compaction per 30 s per session (429 with Retry-After)", async () => {
    const id = await filledSession();
    expect((await compact({ session_id: id, force: true })).status).toBe(201);
    const again = await compact({ session_id: id, force: true });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await again.json()) as { error: { code: string; details: { retry_after_seconds: number } } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.details.retry_after_seconds).toBeLessThanOrEqual(30);
  });

  it("validates its input", async () => {
    for (const body of [{}, { session_id: "nope" }, { session_id: crypto.randomUUID(), preset: "poetry" }, { session_id: crypto.randomUUID(), extra: 1 }]) {
      expect((await compact(body)).status).toBe(400);
    }
    expect((await compact({ session_id: crypto.randomUUID() })).status).toBe(404);
  });
});

describe("concurrency and undo", () => {
  it("two compactions at once compact once", async () => {
    const id = await filledSession();
    await putSettings(id, { auto_compact: true });
    const outcomes = await Promise.all([
      compactSession(LOCAL_USER_ID, id, { trigger: "auto" }),
      compactSession(LOCAL_USER_ID, id, { trigger: "auto" }),
    ]);
    expect(outcomes.map((o) => (o.kind === "skipped" ? o.reason : o.kind)).sort()).toEqual(["below_threshold", "compacted"]);
    expect(await compactions(id)).toHaveLength(1);
  });

  it("undo restores the previous window exactly; only the latest can be undone", async () => {
    const id = await filledSession();
    const before = await contextStatus(id);
    const beforePage = await history(id);
    const res = await compact({ session_id: id });
    const { compaction: c } = (await res.json()) as { compaction: CompactionJson };

    const undo = await undoRoute.POST(req("POST", `/api/context/compact/${c.id}/undo`), params({ compaction_id: c.id }));
    expect(undo.status).toBe(200);
    const undone = (await undo.json()) as { compaction: CompactionJson; status: ContextStatusJson };
    expect(undone.compaction).toMatchObject({ status: "reverted", can_undo: false });
    expect(undone.status.current_tokens).toBe(before.current_tokens);
    expect((await history(id)).messages.map((m) => m.in_window)).toEqual(beforePage.messages.map((m) => m.in_window));

    const twice = await undoRoute.POST(req("POST", `/api/context/compact/${c.id}/undo`), params({ compaction_id: c.id }));
    expect(twice.status).toBe(409);
    expect((await compactions(id))[0].status).toBe("reverted");
  });
});

describe("overflow recovery", () => {
  it("reduces the window and retries when Claude says the prompt is too long", async () => {
    const s = await newSession({ settings: { ...TIGHT, auto_compact: false } });
    await sendJson(s.id, "Project brief: never lose the user's message.");
    for (let i = 0; i < 3; i++) await sendJson(s.id, `Step ${i}: src/step${i}.ts ${prose(6000, i)}`);
    h.fake.enqueue({ kind: "too_long" }, { kind: "reply", text: "### Session Summary\nSteps so far." }, { kind: "reply", text: "Recovered." });
    const events = await readSse(await postMessage(s.id, { content: "and now?" }));
    expect(ofType(events, "error")).toEqual([]);
    expect(ofType(events, "notice").map((n) => n.kind)).toContain("overflow_recovery");
    expect(ofType(events, "compaction")[0]).toMatchObject({ trigger: "error_recovery" });
    expect(ofType(events, "assistant_message").at(-1)?.text).toBe("Recovered.");
  });

  it("gives up after 3 attempts with a clear error and keeps the message", async () => {
    const s = await newSession({ settings: { ...TIGHT, auto_compact: false } });
    await sendJson(s.id, "Project brief.");
    for (let i = 0; i < 2; i++) await sendJson(s.id, `Step ${i}: ${prose(3000, i)}`);
    const { res, body } = await sendJson(s.id, "[[fault:too_long]] please answer");
    expect(res.status).toBe(502);
    expect(body.error?.code).toBe("prompt_too_long");
    expect(body.error?.details.notices.filter((n) => n.kind === "overflow_recovery")).toHaveLength(3);
    const page = await history(s.id);
    expect(page.messages.some((m) => m.text === "[[fault:too_long]] please answer")).toBe(true);
  });
});

describe("templates", () => {
  it("lists presets, saves, selects and deletes a custom template", async () => {
    const list = async () => ((await (await templatesRoute.GET(req("GET", "/api/context/templates"), undefined)).json()) as { templates: TemplateJson[] }).templates;
    expect((await list()).filter((t) => t.preset).map((t) => t.id)).toEqual(["general", "debugging", "code_review", "architecture"]);
    const created = await templatesRoute.POST(
      req("POST", "/api/context/templates", { name: "Terse", body: "Summarize in ten bullet points. Keep every file path." }),
      undefined,
    );
    expect(created.status).toBe(201);
    const { template } = (await created.json()) as { template: TemplateJson };
    const dup = await templatesRoute.POST(req("POST", "/api/context/templates", { name: "Terse", body: "x".repeat(30) }), undefined);
    expect(dup.status).toBe(409);

    const s = await newSession({ settings: TIGHT });
    await putSettings(s.id, { compaction_template: template.id });
    const bad = await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${s.id}`, { compaction_template: "nope" }), undefined);
    expect(bad.status).toBe(400);
    // Enough condensable that /compact is worth a summary (over a tenth of what Claude is sent).
    for (let i = 0; i < 4; i++) await sendJson(s.id, `Turn ${i}: ${prose(600, i)}`);
    expect((await compact({ session_id: s.id, force: true })).status).toBe(201);
    expect((messagesCalls().at(-1)?.body as { system: string }).system).toContain("Summarize in ten bullet points.");

    const del = await templateRoute.DELETE(req("DELETE", `/api/context/templates/${template.id}`), params({ id: template.id }));
    expect(del.status).toBe(204);
    expect((await list()).some((t) => t.id === template.id)).toBe(false);
  });
});

describe("compaction and the prompt cache", () => {
  it("waits for the threshold while the cache is warm, condenses early once it went cold, and records the cache cost", async () => {
    const id = await filledSession();
    const st = await contextStatus(id);
    // The threshold just above the session's fill: within the early margin, not past it.
    await putSettings(id, { auto_compact: true, compaction_threshold: Math.round(st.usage_percent + 5) / 100 });
    h.fake.enqueue({ kind: "reply", text: "Warm." });
    const warm = await readSse(await postMessage(id, { content: "Still here?" }));
    expect(ofType(warm, "compaction")).toEqual([]);
    await idle(h, id);

    // Ten minutes without a request: the cached prefix has expired, so condensing loses nothing.
    await h.db.transaction((tx) => tx.query("update sessions set measured_at = now() - interval '10 minutes' where id = $1", [id]));
    h.fake.enqueue({ kind: "reply", text: "### Session Summary\nBuilding the sync service." }, { kind: "reply", text: "Back." });
    const cold = await readSse(await postMessage(id, { content: "Back after a break." }));
    const [c] = ofType(cold, "compaction");
    expect(c).toMatchObject({ trigger: "auto", status: "applied" });
    expect(c.cache).toMatchObject({ warm: false, payback_turns: 0 });
    expect(c.cache?.break_cost_usd).toBeLessThan(0);
    expect(c.cache?.rewrite_tokens).toBe(c.post_tokens);
    // The record keeps it.
    expect((await compactions(id)).at(-1)?.cache).toEqual(c.cache);
  });

  it("a manual compaction right after a reply records that it broke a warm cache and when that pays back", async () => {
    const id = await filledSession();
    h.fake.enqueue({ kind: "reply", text: "### Session Summary\nBuilding the sync service." });
    const res = await compact({ session_id: id });
    expect(res.status).toBe(201);
    const { compaction } = (await res.json()) as { compaction: CompactionJson };
    expect(compaction.cache?.warm).toBe(true);
    expect(compaction.cache?.rewrite_tokens).toBeGreaterThan(0);
    expect(compaction.cache?.rewrite_tokens).toBeLessThan(compaction.post_tokens);
    expect(compaction.cache?.payback_turns).toBeGreaterThan(0);
  });
});
