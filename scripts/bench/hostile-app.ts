// Hostile scenarios against the built app (`npx next build` first), started as `npm start` starts
// it on a fresh embedded data folder: what one person can do to an instance, and how long the
// instance's health check waited meanwhile. The slowest health answer bounds the longest
// event-loop stall from the outside, as a load balancer's probe would see it. Target: under
// 100 ms throughout (STALL_TARGET_MS).
//
// Environment: BENCH_HOSTILE_APP=0 skips these (they need the build); BENCH_HOSTILE_HISTORY
// (3000) the messages of the long drop-in history.
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import {
  api,
  exitWithin,
  rssMb,
  spawnEmbedded,
  startEmbedded,
  streamBody,
  tempDataDir,
  watchHealth,
  type AppInstance,
} from "../../tests/reliability/app";
import { STALL_TARGET_MS } from "./hostile";
import { fmtInt, fmtMs, round3, table } from "./report";
import { intEnv } from "./stats";


export interface AppScenario {
  name: string;
  /** What the server answered, in words. */
  outcome: string;
  ms: number;
  healthMaxMs: number;
  healthSamples: number;
  /** Anything else worth a column: RSS growth. */
  note: string;
}

interface Setup {
  app: AppInstance;
  anthropicUrl: string;
  sessionId: string;
}

/** Runs `fn` while health is polled every 20 ms; the scenario's figures. */
async function scenario(name: string, setup: Setup, fn: () => Promise<{ outcome: string; note?: string }>): Promise<AppScenario> {
  const health = watchHealth(setup.app, 20);
  const t0 = performance.now();
  const { outcome, note } = await fn();
  const ms = performance.now() - t0;
  const { samples, maxMs } = await health.stop();
  return { name, outcome, ms, healthMaxMs: maxMs, healthSamples: samples, note: note ?? "" };
}

function history(messages: number): { role: "user" | "assistant"; content: string }[] {
  const out: { role: "user" | "assistant"; content: string }[] = [];
  for (let i = 0; i < messages; i++) {
    const words = Array.from({ length: 20 + (i % 60) }, (_, k) => `word${(i * 31 + k * 7) % 997}`).join(" ");
    out.push({ role: i % 2 === 0 ? "user" : "assistant", content: `Turn ${i}: ${words}` });
  }
  if (out[out.length - 1].role !== "user") out.push({ role: "user", content: "And now?" });
  return out;
}

async function dropIn(app: AppInstance, body: object): Promise<string> {
  const res = await api<{ type?: string; error?: { type: string } }>(app, "POST", "/api/anthropic/v1/messages", body, { "anthropic-version": "2023-06-01" });
  return res.status === 200 ? "200" : `${res.status} ${res.body?.error?.type ?? ""}`.trim();
}

export async function benchHostileApp(): Promise<AppScenario[] | null> {
  if (process.env.BENCH_HOSTILE_APP === "0") return null;
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("\nHostile scenarios against the app: skipped (no build; run `npx next build` first).");
    return null;
  }
  const fake = await startFakeAnthropic();
  const dir = await tempDataDir("tk-bench-hostile-");
  const app = await startEmbedded("bench", dir, fake.url);
  try {
    const created = await api<{ session: { id: string } }>(app, "POST", "/api/session", { title: "hostile" });
    const setup: Setup = { app, anthropicUrl: fake.url, sessionId: created.body.session.id };
    const send = (content: string) => api(app, "POST", `/api/session/${setup.sessionId}/messages`, { content });
    await send("warm-up");
    const results: AppScenario[] = [];

    results.push(
      await scenario("a second start on the folder", setup, async () => {
        const second = await spawnEmbedded("second", dir, fake.url);
        const code = await exitWithin(second, 60_000);
        if (code === "running") await second.stop();
        return { outcome: code === "running" ? "NOT refused" : `refused, exit ${code}` };
      }),
    );
    for (const [label, text] of [
      ["400 KB of one letter", "x".repeat(400_000)],
      ["400 KB of DNA", Array.from({ length: 400_000 }, (_, i) => "ACGT"[(i * 7 + (i >> 3)) % 4]).join("")],
    ] as const) {
      results.push(await scenario(`a message of ${label}`, setup, async () => ({ outcome: String((await send(text)).status) })));
    }
    const pid = app.pid as number;
    for (const [label, route] of [
      ["1 GB streamed to a send", `/api/session/${setup.sessionId}/messages`],
      ["1 GB streamed to the drop-in", "/api/anthropic/v1/messages"],
    ] as const) {
      results.push(
        await scenario(label, setup, async () => {
          const before = rssMb(pid);
          const upload = await streamBody(app, route, 1024 ** 3);
          return { outcome: `${upload.status} after ${fmtInt(Math.round(upload.sent / 1024))} KB`, note: `RSS ${(rssMb(pid) - before).toFixed(1)} MB` };
        }),
      );
    }
    const n = intEnv("BENCH_HOSTILE_HISTORY", 3000);
    results.push(
      await scenario(`a ${fmtInt(n)}-message drop-in history`, setup, async () => ({
        outcome: await dropIn(app, { model: "claude-haiku-4-5", max_tokens: 100, messages: history(n) }),
      })),
    );
    results.push(
      await scenario("a 100,000-deep tool schema", setup, async () => {
        const deep = "[".repeat(100_000) + "]".repeat(100_000);
        const body = `{"model":"claude-haiku-4-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"t","input_schema":{"type":"object","properties":{"a":${deep}}}}]}`;
        const res = await fetch(`${app.base}/api/anthropic/v1/messages`, { method: "POST", headers: { "content-type": "application/json" }, body });
        await res.arrayBuffer();
        return { outcome: String(res.status) };
      }),
    );
    return results;
  } finally {
    await app.stop();
    await fake.close();
  }
}

export function printHostileApp(results: AppScenario[]): void {
  console.log(`\nHostile scenarios against the built app (embedded database): health polled every 20 ms; target: every answer under ${STALL_TARGET_MS} ms.`);
  const rows = results.map((r) => [
    r.name,
    r.outcome,
    fmtMs(r.ms),
    fmtMs(r.healthMaxMs),
    fmtInt(r.healthSamples),
    r.note,
    r.healthMaxMs < STALL_TARGET_MS ? "yes" : "NO",
  ]);
  console.log(table(["scenario", "answer", "time", "slowest health", "health checks", "", "met"], rows));
}

export function hostileAppJson(results: AppScenario[]) {
  return results.map((r) => ({ scenario: r.name, outcome: r.outcome, ms: round3(r.ms), health_max_ms: round3(r.healthMaxMs), health_samples: r.healthSamples, note: r.note }));
}
