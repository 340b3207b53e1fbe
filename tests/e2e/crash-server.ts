// A second app server that a test may kill with SIGKILL: Playwright's own web server must
// stay up for the other tests, so the crash test starts (and restarts) its own instance on
// its own data folder, wired to the same fake Anthropic server. A test that needs the server
// started with other settings (the storage banner's thresholds) starts one the same way.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { CRASH_PORT } from "./ports";
import { FAKE_URL } from "./support";

export const CRASH_URL = `http://127.0.0.1:${CRASH_PORT}`;

export interface AppServer {
  kill(): void;
}

export function crashDataDir(): string {
  return path.join(os.tmpdir(), `tk-crash-${Date.now()}`);
}

export async function startApp(dataDir: string, opts: { port?: number; env?: Record<string, string> } = {}): Promise<AppServer> {
  const port = opts.port ?? CRASH_PORT;
  const child: ChildProcess = spawn(
    process.execPath,
    [require.resolve("next/dist/bin/next"), "start", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      detached: true,
      stdio: "ignore",
      env: {
        ...process.env,
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: FAKE_URL,
        THREADKEEPER_DATA_DIR: dataDir,
        THREADKEEPER_MODEL: "claude-haiku-4-5",
        ...opts.env,
      },
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/session/recent`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the crash-test server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    // The whole process group, at once and without any chance to clean up: a real crash.
    kill: () => {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    },
  };
}
