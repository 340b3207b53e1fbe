// The built app on its embedded database, as `npm start` runs it, wired to a fake Anthropic
// server; and the probes the reliability tests share: health's latency and a process's memory.
import { mkdtemp } from "node:fs/promises";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnApp, startApp, type AppInstance } from "../pg/app";

export { api, type AppInstance } from "../pg/app";

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
