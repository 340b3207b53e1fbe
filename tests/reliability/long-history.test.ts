// Long histories are work, not a stall (issue 29, point 5): a 3,000-message conversation sent
// through the drop-in to the built app with the real Anthropic SDK, while /api/health is polled
// every 50 ms. The request is answered (or refused cleanly), health keeps answering, and the
// session then holds every message of the history exactly once, in order.
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageJson, MessagesPageJson } from "@/lib/contract";
import { longHistory } from "../../scripts/bench/hostile-history";
import { api, HEALTH_BOUND_MS, settle, startEmbedded, startFakeAnthropicProcess, tempDataDir, watchHealth, type AppInstance, type FakeAnthropicProcess } from "./app";

const MESSAGES = 3_001;

let fake: FakeAnthropicProcess;
let app: AppInstance;

beforeAll(async () => {
  fake = await startFakeAnthropicProcess();
  app = await startEmbedded("long-history", await tempDataDir(), fake.url);
  await settle(app);
});

afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

/** Every message of the session, oldest first, a page of 500 at a time. */
async function allMessages(sessionId: string): Promise<MessageJson[]> {
  const out: MessageJson[] = [];
  let before = "";
  for (;;) {
    const page = await api<MessagesPageJson>(app, "GET", `/api/session/${sessionId}/messages?limit=500${before}`);
    expect(page.status).toBe(200);
    out.unshift(...page.body.messages);
    if (!page.body.has_more || page.body.messages.length === 0) return out;
    before = `&before_seq=${page.body.messages[0].seq}`;
  }
}

it(`answers a ${MESSAGES}-message history through the drop-in while health stays responsive`, async () => {
  const client = new Anthropic({ apiKey: "local", baseURL: `${app.base}/api/anthropic`, maxRetries: 0, timeout: 170_000 });
  const messages = longHistory(MESSAGES);
  const health = watchHealth(app, 50);
  const t0 = performance.now();
  const res = await client.messages
    .create({ model: "claude-haiku-4-5", max_tokens: 64, tools: [{ name: "read_file", input_schema: { type: "object" } }], messages })
    .withResponse();
  const ms = performance.now() - t0;
  const polled = await health.stop();
  console.log(`${MESSAGES} messages answered in ${Math.round(ms)} ms; health: ${polled.samples} answers, slowest ${Math.round(polled.maxMs)} ms, ${polled.failures} failures`);

  expect(res.response.headers.get("threadkeeper-history")).toBe("imported");
  expect(res.data.content.length).toBeGreaterThan(0);
  expect(polled.failures).toBe(0);
  expect(polled.samples).toBeGreaterThan(5);
  expect(polled.maxMs).toBeLessThan(HEALTH_BOUND_MS);

  const sessionId = res.response.headers.get("threadkeeper-session-id") ?? "";
  const stored = await allMessages(sessionId);
  // Each message of the history once, in order, then the reply.
  expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
  expect(stored.slice(0, MESSAGES).map((m) => m.role)).toEqual(messages.map((m) => m.role));
  const texts = stored.slice(0, MESSAGES).map((m) => m.text);
  messages.forEach((m, i) => {
    if (typeof m.content === "string") expect(texts[i]).toBe(m.content);
  });
  expect(stored.at(-1)?.role).toBe("assistant");
  expect(stored).toHaveLength(MESSAGES + 1);
});
