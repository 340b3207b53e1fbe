import "server-only";
import { mkdir } from "node:fs/promises";
import { authMode } from "@/lib/mode";
import { dataDir, env } from "@/lib/env";
import { lockDataFolder } from "./folder-lock";
import { fromPGlite, fromPostgres, type Database, type Tx } from "./driver";
import { guarded } from "./guarded";
import { measureFolder } from "./storage";
import { applyEmbeddedAuth, migrate } from "./migrate";

export type { Database, Tx };

/** The one user of local (embedded, no sign-in) mode. */
export const LOCAL_USER_ID = "00000000-0000-4000-8000-000000000001";

type Holder = { promise?: Promise<Database> };
// On globalThis so that Next.js dev reloads and duplicated module graphs share one instance:
// two PGlite instances on one data folder silently corrupt it.
const holder = ((globalThis as { __threadkeeperDb?: Holder }).__threadkeeperDb ??= {});

export function getDb(): Promise<Database> {
  if (!holder.promise) {
    holder.promise = openDatabase().catch((err: unknown) => {
      holder.promise = undefined; // let the next request try again
      throw err;
    });
  }
  return holder.promise;
}

/** For tests: use this database instead of the configured one. */
export function setDb(db: Database | undefined): void {
  holder.promise = db ? Promise.resolve(db) : undefined;
}

async function openDatabase(): Promise<Database> {
  const url = env().DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const db = guarded(fromPostgres(postgres(url, { max: 10, onnotice: () => {}, prepare: env().THREADKEEPER_DB_PREPARE !== "off" })));
    await prepare(db, false);
    return db;
  }
  return openEmbedded(dataDir());
}

/** PGlite with pgvector; `memory://` keeps everything in memory (tests). */
export async function openEmbedded(dir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  if (dir.startsWith("memory://")) return prepared(guarded(fromPGlite(await PGlite.create(dir, { extensions: { vector } }))));
  await mkdir(dir, { recursive: true });
  // Before PGlite touches the folder: a second instance on it corrupts it (folder-lock.ts).
  const release = await lockDataFolder(dir);
  measureFolder(dir);
  let db: Database | undefined;
  try {
    db = guarded(fromPGlite(await PGlite.create(dir, { extensions: { vector } }), release));
    return await prepared(db);
  } catch (err) {
    // The folder is let go only once this process's instance on it is closed.
    await (db ? db.close() : release()).catch(() => {});
    throw err;
  }
}

async function prepared(db: Database): Promise<Database> {
  await prepare(db, true);
  return db;
}

export async function prepare(db: Database, embedded: boolean): Promise<void> {
  if (embedded) await applyEmbeddedAuth(db);
  await migrate(db);
  // Only local mode acts as the one local user; in SaaS mode every user comes from Supabase Auth.
  if (authMode() === "local") await ensureLocalUser(db);
}

async function ensureLocalUser(db: Database): Promise<void> {
  await db.transaction((tx) =>
    tx.query("insert into auth.users (id, email) values ($1, 'local@threadkeeper.local') on conflict (id) do nothing", [
      LOCAL_USER_ID,
    ]),
  );
}

/**
 * Runs fn in one transaction as role `authenticated` carrying the caller's claims, so the
 * RLS policies hold even if a query forgets its user filter.
 */
export async function withUser<T>(userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const claims = JSON.stringify({ sub: userId, role: "authenticated" });
    // One statement: set_config('role', …, true) is SET LOCAL ROLE (as PostgREST does it). Not
    // awaited before `fn`: statements of a transaction run in the order they were issued, so
    // on PostgreSQL it leaves in one packet with fn's first statement (lib/db/driver.ts), and if
    // it failed, so does everything after it.
    const set = tx.query(
      "select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true), set_config('role', 'authenticated', true)",
      [claims, userId],
    );
    set.catch(() => {});
    const result = await fn(tx);
    await set;
    return result;
  });
}
