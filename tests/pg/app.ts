// One real `next start` process of the built app (or its standalone server, as the container
// image runs it), and a small JSON client for its REST API.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./cluster";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const READY_TIMEOUT_MS = 90_000;
/** The tail of a server's output kept for failure messages. */
const OUTPUT_KEEP = 20_000;

export interface AppInstance {
  name: string;
  base: string;
  port: number;
  /** The server's process id (its RSS, in the load benchmark). */
  pid: number | undefined;
  /** What the server printed so far (its tail). */
  output(): string;
  stop(): Promise<void>;
  /** Sends the process a signal (SIGTERM: its graceful shutdown). */
  signal(name: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * Starts the built app in local mode (one local user, no sign-in) on its own free port,
 * against `databaseUrl`. Anything from the caller's environment that would change the mode,
 * the database or the model is left out.
 */
export async function startApp(
  name: string,
  databaseUrl: string | null,
  extraEnv: Record<string, string>,
  opts: { standaloneDir?: string } = {},
): Promise<AppInstance> {
  const instance = await spawnApp(name, databaseUrl, extraEnv, opts);
  try {
    await waitReady(instance, instance.exited);
  } catch (err) {
    await instance.stop();
    throw new Error(`${name} did not start: ${String(err)}\n--- ${name} output ---\n${instance.output()}`);
  }
  return instance;
}

/**
 * Starts the process without waiting for it to be ready. `databaseUrl` null: the embedded
 * database, in the folder `extraEnv.THREADKEEPER_DATA_DIR` names.
 */
export async function spawnApp(
  name: string,
  databaseUrl: string | null,
  extraEnv: Record<string, string>,
  opts: { standaloneDir?: string; port?: number } = {},
): Promise<AppInstance> {
  const port = opts.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { NODE_ENV: "production" };
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SUPABASE_|NEXT_PUBLIC_SUPABASE_|ANTHROPIC_|THREADKEEPER_|VOYAGE_|DATABASE_URL$|VITEST|NODE_ENV$)/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }, extraEnv);
  // On PostgreSQL without a data folder, uploads would land in the repository's data/ (lib/env.ts
  // filesDir()): one temporary folder for this run instead, shared by its instances as a shared
  // store would be. With a data folder (the embedded database), files go beside it.
  if (!env.THREADKEEPER_FILES_DIR && !env.THREADKEEPER_DATA_DIR) env.THREADKEEPER_FILES_DIR = runFilesDir();
  // The standalone server (the container image's `node server.js`) takes its address from the
  // environment, as the Dockerfile sets it; `next start` from its flags.
  const child = opts.standaloneDir
    ? spawn(process.execPath, ["server.js"], {
        cwd: opts.standaloneDir,
        env: { ...env, HOSTNAME: "127.0.0.1", PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      })
    : spawn(process.execPath, [NEXT_BIN, "start", "--hostname", "127.0.0.1", "--port", String(port)], {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEEP);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const instance: AppInstance = {
    name,
    base: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    output: () => output,
    stop: () => stopChild(child, exited),
    signal: (name) => void child.kill(name),
    exited,
  };
  return instance;
}

let filesDir: string | undefined;

/** This test process's file-store folder for its app servers, removed when the process exits. */
function runFilesDir(): string {
  if (!filesDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "tk-pg-files-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    filesDir = dir;
  }
  return filesDir;
}

export async function waitReady(app: AppInstance, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (gone !== undefined) throw new Error(`exited with code ${gone}`);
    try {
      // An API route reads the database, so ready means migrated and connected too.
      const res = await fetch(`${app.base}/api/session?limit=1`, { headers: { accept: "application/json" } });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready after ${READY_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A JSON request as an integration would send it. Every request carries
 * `content-type: application/json` (the edge refuses state-changing requests without it) and
 * the instance's own loopback Host (fetch derives it from the URL).
 */
export async function api<T>(
  app: AppInstance,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const res = await fetch(`${app.base}${urlPath}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    throw new Error(`${app.name} ${method} ${urlPath} → ${res.status}, not JSON: ${text.slice(0, 500)}`);
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}
