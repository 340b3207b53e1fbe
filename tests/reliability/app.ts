// The built app on its embedded database, as `npm start` runs it, wired to a fake Anthropic
// server; and the probes the reliability tests share: health's latency and a process's memory.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { spawnApp, startApp, type AppInstance } from "../pg/app";
import { freePort } from "../pg/cluster";

export { api, type AppInstance } from "../pg/app";

/**
 * The slowest health answer a test allows. The target is 100 ms (`npm run bench`, hostile,
 * reports it); a shared two-core CI machine running the app, the test and the fake API side by
 * side stretches single answers, so the assertion allows a second: a stall was seconds before.
 */
export const HEALTH_BOUND_MS = 1_000;

/** A fresh data folder under the temporary folder. */
export function tempDataDir(prefix = "tk-rel-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

function embeddedEnv(dataDir: string, anthropicUrl: string, extra: Record<string, string>): Record<string, string> {
  return {
    THREADKEEPER_DATA_DIR: dataDir,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: anthropicUrl,
    THREADKEEPER_MODEL: "claude-haiku-4-5",
    THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0",
    THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0",
    ...extra,
  };
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX_BIN = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

export interface FakeAnthropicProcess {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * The fake Anthropic server in a process of its own, as Playwright runs it. In the test's own
 * process, its token counting of a summarizer request (hundreds of thousands of tokens) would
 * block the health poller and be measured as the app's stall.
 */
export async function startFakeAnthropicProcess(): Promise<FakeAnthropicProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [TSX_BIN, path.join(ROOT, "tests", "fake-anthropic", "server.ts")], {
    cwd: ROOT,
    env: { ...process.env, FAKE_ANTHROPIC_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString("utf8")).slice(-5_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fake Anthropic exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) return { url, pid: child.pid, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`fake Anthropic not ready after 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `next start` on `dataDir`, ready (migrated and answering) when it resolves. */
export function startEmbedded(name: string, dataDir: string, anthropicUrl: string, extra: Record<string, string> = {}): Promise<AppInstance> {
  return startApp(name, null, embeddedEnv(dataDir, anthropicUrl, extra));
}

/** `next start` on `dataDir`, not waited for: a process that may never become ready. */
export function spawnEmbedded(name: string, dataDir: string, anthropicUrl: string, extra: Record<string, string> = {}): Promise<AppInstance> {
  return spawnApp(name, null, embeddedEnv(dataDir, anthropicUrl, extra));
}

/** Resolves with the exit code, or "running" if the process is still alive after `ms`. */
export function exitWithin(app: AppInstance, ms: number): Promise<number | null | "running"> {
  return Promise.race([app.exited, new Promise<"running">((r) => setTimeout(() => r("running"), ms))]);
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * Waits until health answers fast `times` times in a row (or `maxMs` pass): just after it is
 * ready, `next start` loads every route's code (Next.js's preloadEntriesOnStart), about half a
 * second of the thread in a few pieces, a start-up cost a test of something else should not
 * measure.
 */
export async function settle(app: AppInstance, { fastMs = 50, times = 10, maxMs = 15_000 } = {}): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (let fast = 0; fast < times && Date.now() < deadline; ) {
    const t0 = performance.now();
    const res = await fetch(`${app.base}/api/health`);
    await res.arrayBuffer();
    fast = res.status === 200 && performance.now() - t0 < fastMs ? fast + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls GET /api/health every `everyMs` until stopped; the slowest answer tells whether the
 * event loop stalled while something else ran.
 */
export function watchHealth(app: AppInstance, everyMs = 50): { stop(): Promise<{ samples: number; maxMs: number; failures: number }> } {
  let running = true;
  let samples = 0;
  let maxMs = 0;
  let failures = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${app.base}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      maxMs = Math.max(maxMs, performance.now() - t0);
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { samples, maxMs, failures };
    },
  };
}

export interface Upload {
  /** The answer's status, or the error that ended the upload before one arrived. */
  status: number | string;
  /** Bytes written before the server answered or closed the connection. */
  sent: number;
}

/**
 * POSTs `totalBytes` of a JSON string as a chunked body (no Content-Length), writing as fast as
 * the socket takes it, until the server answers or hangs up.
 */
export function streamBody(app: AppInstance, path: string, totalBytes: number, headers: Record<string, string> = {}): Promise<Upload> {
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const done = (status: number | string) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ status, sent });
    };
    const req = http.request(`${app.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    const chunk = Buffer.alloc(256 * 1024, "a");
    req.write('{"content":"');
    const pump = () => {
      while (!settled && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!settled) req.end('"}');
    };
    pump();
  });
}

/** Sends only the headers of a request that declares a huge body, and waits for the answer. */
export function declareBody(app: AppInstance, path: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(bytes) },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}
