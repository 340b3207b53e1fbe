import os from "node:os";
import path from "node:path";
import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import { APP_PORT, SAAS_PORT, portsFor } from "./tests/e2e/ports";

// Fixed per run (the config is evaluated again in workers; the env var keeps them agreeing),
// fresh per run so tests never see a previous run's sessions.
const dataDir = (process.env.TK_E2E_DATA_DIR ??= path.join(os.tmpdir(), `tk-e2e-${Date.now()}`));

// Parallel workers, each with a set of servers of its own (ports.ts): the fake Anthropic server's
// reply queue and the app's data folder are per set, so no test sees another's scripted replies.
// A run naming a single spec file needs one set only; TK_E2E_WORKERS overrides either way.
const singleSpec = process.argv.filter((a) => /\.spec\.ts(:\d+)*$/.test(a)).length === 1;
const workers = Number(process.env.TK_E2E_WORKERS ?? (singleSpec ? 1 : 2));

type WebServer = Extract<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>[number];

/** The servers one worker talks to, on that worker's ports and data folders. */
function serverSet(worker: number): WebServer[] {
  const { FAKE_PORT, APP_PORT, FAKE_AUTH_PORT, SAAS_PORT } = portsFor(worker);
  const data = `${dataDir}-w${worker}`;
  return [
    {
      command: "npx tsx tests/fake-anthropic/server.ts",
      url: `http://127.0.0.1:${FAKE_PORT}/health`,
      env: { FAKE_ANTHROPIC_PORT: String(FAKE_PORT) },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `npx next start --hostname 127.0.0.1 --port ${APP_PORT}`,
      url: `http://127.0.0.1:${APP_PORT}`,
      env: {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${FAKE_PORT}`,
        THREADKEEPER_DATA_DIR: data,
        // A 200K window, so a test can fill a session with a handful of messages.
        THREADKEEPER_MODEL: "claude-haiku-4-5",
        // One summarizer call per compaction (no map-reduce over 60K-token parts), so a test
        // can script the summary with a single queued reply.
        THREADKEEPER_SUMMARY_CHUNK_TOKENS: "1000000",
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "npx tsx tests/fake-supabase-auth/server.ts",
      url: `http://127.0.0.1:${FAKE_AUTH_PORT}/health`,
      env: { FAKE_SUPABASE_PORT: String(FAKE_AUTH_PORT) },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `npx next start --hostname 127.0.0.1 --port ${SAAS_PORT}`,
      // The sign-in page: every other page redirects a signed-out visitor there.
      url: `http://127.0.0.1:${SAAS_PORT}/login`,
      env: {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${FAKE_PORT}`,
        THREADKEEPER_DATA_DIR: `${data}-saas`,
        THREADKEEPER_MODEL: "claude-haiku-4-5",
        SUPABASE_URL: `http://127.0.0.1:${FAKE_AUTH_PORT}`,
        SUPABASE_PUBLISHABLE_KEY: "sb_publishable_e2e",
        // SaaS mode would keep files in Supabase Storage, which the fake Auth server does not
        // serve; one instance per set here, so a folder beside its data (`<data dir>-files`) will do.
        THREADKEEPER_FILE_STORE: "local",
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ];
}

export default defineConfig({
  testDir: "tests/e2e",
  workers,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium" }, testIgnore: /saas\.spec\.ts/ },
    // At localhost: Next.js's middleware writes loopback redirects as localhost, and cookies follow the host name.
    { name: "saas", use: { browserName: "chromium", baseURL: `http://localhost:${SAAS_PORT}` }, testMatch: /saas\.spec\.ts/ },
  ],
  webServer: Array.from({ length: workers }, (_, i) => serverSet(i)).flat(),
});
