// Text without spaces used to freeze the whole server (cl100k's BPE is quadratic on long runs:
// one 400 KB message hung it for more than ten minutes). Each of these is answered like any other
// message while health keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import type { SessionJson } from "@/lib/contract";
import { api, HEALTH_BOUND_MS, startEmbedded, tempDataDir, watchHealth, type AppInstance } from "./app";

const ANSWER_BOUND_MS = 10_000;
const SIZE = 400_000;

let fake: FakeAnthropic;
let app: AppInstance;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  app = await startEmbedded("pathological text", await tempDataDir(), fake.url);
  const created = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title: "warm-up" });
  // The first send loads the routes' code and the tokenizer: not what is measured.
  await api(app, "POST", `/api/session/${created.body.session.id}/messages`, { content: "warm-up" });
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

function minifiedCode(bytes: number): string {
  let code = "";
  for (let k = 0; code.length < bytes; k++) code += `function a${k}(b,c){return b.map(d=>d*c+1).filter(e=>e>0x1f&&e.n!=="x${k % 97}")}var q${k}=[1,2,3];`;
  return code.slice(0, bytes);
}

const INPUTS: [string, string][] = [
  ["one letter", "x".repeat(SIZE)],
  ["DNA", Array.from({ length: SIZE }, (_, i) => "ACGT"[(i * 2654435761) % 7 % 4]).join("")],
  ["minified code", minifiedCode(SIZE)],
];

describe("a 400 KB message without spaces", () => {
  it.each(INPUTS)("of %s is answered while health stays responsive", async (_name, text) => {
    const health = watchHealth(app, 50);
    const t0 = performance.now();
    const created = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title: "pathological" });
    const sent = await api<{ user_message?: { token_count: number }; error?: { code: string } }>(app, "POST", `/api/session/${created.body.session.id}/messages`, { content: text });
    const drop = await api(app, "POST", "/api/anthropic/v1/messages", { model: "claude-haiku-4-5", max_tokens: 50, messages: [{ role: "user", content: text }] });
    const ms = performance.now() - t0;
    const { samples, maxMs, failures } = await health.stop();
    // Both answered in well under a second on a quiet machine (npm run bench, hostile); the bound
    // tells a freeze (minutes before) from a busy CI machine.
    expect(ms).toBeLessThan(ANSWER_BOUND_MS);
    // Answered, or refused cleanly when it cannot fit Claude's window (DNA is about 150K tokens).
    if (sent.status === 413) expect(sent.body.error?.code).toBe("context_overflow");
    else {
      expect(sent.status, JSON.stringify(sent.body).slice(0, 300)).toBe(201);
      expect(sent.body.user_message?.token_count).toBeGreaterThan(SIZE / 64);
    }
    expect([200, 400], JSON.stringify(drop.body).slice(0, 300)).toContain(drop.status);
    expect(failures).toBe(0);
    expect(samples).toBeGreaterThan(0);
    expect(maxMs, `slowest health answer ${maxMs.toFixed(0)} ms over ${samples}`).toBeLessThan(HEALTH_BOUND_MS);
  });
});
