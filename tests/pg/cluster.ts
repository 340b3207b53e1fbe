// A throwaway PostgreSQL 15 cluster for the real-PostgreSQL suite: initdb into a temp dir,
// pg_ctl start on a free port (TCP on 127.0.0.1 only, unix socket inside the temp dir), and
// stop + remove at the end. Uses Debian's postgresql-15 binaries; .ci/run installs them.
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";

const run = promisify(execFile);

export const PG_BIN = process.env.TK_PG_BIN ?? "/usr/lib/postgresql/15/bin";
/** The cluster's superuser, named as on Supabase; the app connects as `postgres` (not a superuser). */
export const SUPERUSER = "supabase_admin";

/** Why the suite cannot run here, or null when PostgreSQL 15 and pgvector are installed. */
export function missingPrerequisite(): string | null {
  for (const tool of ["initdb", "pg_ctl", "postgres"]) {
    const file = path.join(PG_BIN, tool);
    if (!existsSync(file)) return `${file} not found`;
  }
  const control = path.join(shareDir(), "extension", "vector.control");
  if (!existsSync(control)) return `pgvector is not installed for PostgreSQL 15 (${control} not found)`;
  return null;
}

function shareDir(): string {
  const pgConfig = path.join(PG_BIN, "pg_config");
  if (existsSync(pgConfig)) {
    try {
      return execFileSync(pgConfig, ["--sharedir"], { encoding: "utf8" }).trim();
    } catch {
      // fall through to Debian's layout
    }
  }
  return "/usr/share/postgresql/15";
}

/** A port nothing listens on right now (the OS picks it), never one of Playwright's fixed ports. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface OsUser {
  uid: number;
  gid: number;
  name: string;
}

/**
 * initdb refuses to run as root (CI runs as root): the cluster then runs as Debian's
 * `postgres` system user (created by the postgresql-15 package), else as `nobody`.
 */
function clusterUser(): OsUser | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ["postgres", "nobody"]) {
    let line: string;
    try {
      line = execFileSync("getent", ["passwd", name], { encoding: "utf8" }).trim();
    } catch {
      continue; // no such user
    }
    const [, , uid, gid] = line.split(":");
    return { name, uid: Number(uid), gid: Number(gid) };
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run initdb as");
}

export interface Cluster {
  port: number;
  dir: string;
  /** Connection URL for `user` on `database` over TCP (trust authentication, loopback only). */
  url(user: string, database?: string): string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `settings`: extra server settings (`-c name=value`), e.g. a benchmark's larger shared_buffers;
 * the suite runs with the defaults.
 */
export async function startCluster(settings: Record<string, string> = {}): Promise<Cluster> {
  const user = clusterUser();
  const dir = await mkdtemp(path.join(os.tmpdir(), "tk-pg-"));
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "socket");
  const logFile = path.join(dir, "server.log");
  await mkdir(socketDir);
  if (user) await chown(dir, user.uid, user.gid);
  if (user) await chown(socketDir, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid, env: { ...process.env, HOME: dir, USER: user.name } } : {};
  const cleanUp = () => rm(dir, { recursive: true, force: true });

  try {
    await run(
      path.join(PG_BIN, "initdb"),
      ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
      { ...as, cwd: dir },
    );
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // Durability is pointless for a cluster that is deleted at the end of the run.
  const options = (port: number) =>
    [
      `-p ${port}`,
      `-k ${socketDir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
      ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
    ].join(" ");
  let port = 0;
  // Another process may take the free port between the probe and the server's bind: try again.
  for (let attempt = 1; port === 0; attempt++) {
    const candidate = await freePort();
    try {
      await run(path.join(PG_BIN, "pg_ctl"), ["start", "-w", "-t", "60", "-D", dataDir, "-l", logFile, "-o", options(candidate)], {
        ...as,
        cwd: dir,
      });
      port = candidate;
    } catch (err) {
      const log = await readFile(logFile, "utf8").catch(() => "");
      if (attempt < 3 && /could not bind|already in use/i.test(log)) continue;
      await cleanUp();
      throw new Error(`pg_ctl start failed: ${String(err)}\n${log}`);
    }
  }

  let stopped = false;
  const stopSync = (): void => {
    if (stopped) return;
    try {
      execFileSync(path.join(PG_BIN, "pg_ctl"), ["stop", "-m", "immediate", "-D", dataDir], { ...as, stdio: "ignore" });
    } catch {
      // already gone
    }
  };
  // A run interrupted before its teardown must not leave a postmaster behind.
  process.once("exit", stopSync);

  return {
    port,
    dir,
    url: (role, database = "postgres") => `postgres://${role}@127.0.0.1:${port}/${database}`,
    log: () => readFile(logFile, "utf8"),
    stop: async () => {
      if (stopped) return;
      try {
        await run(path.join(PG_BIN, "pg_ctl"), ["stop", "-w", "-m", "fast", "-D", dataDir], { ...as, cwd: dir });
      } catch {
        stopSync();
      }
      stopped = true;
      process.removeListener("exit", stopSync);
      await cleanUp();
    },
  };
}

/** The file that gives a plain PostgreSQL what Supabase provides before the migrations: compose's and this suite's. */
export const SUPABASE_FIXTURE = path.join(import.meta.dirname, "..", "..", "deploy", "postgres", "10-supabase-roles.sql");

/** Supabase's roles, auth schema and extensions, applied as the superuser. */
export async function applyFixture(superuserUrl: string): Promise<void> {
  const sql = postgres(superuserUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(await readFile(SUPABASE_FIXTURE, "utf8"));
  } finally {
    await sql.end({ timeout: 5 });
  }
}
