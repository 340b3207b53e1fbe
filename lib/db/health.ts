import "server-only";
import { log } from "@/lib/log";
import type { Database } from "./driver";
import { getDb } from "./index";
import { storageReading } from "./storage";

/** The latest migration applied to the database (its file name), or null when none is: one row of a tiny table. */
export async function latestMigration(db: Database): Promise<string | null> {
  const [row] = await db.transaction((tx) =>
    tx.query<{ name: string }>("select name from public.threadkeeper_migrations order by name desc limit 1"),
  );
  return row?.name ?? null;
}

export type DatabaseHealth = { ok: true; migration: string } | { ok: false; reason: string };

export const STORAGE_FULL_REASON = "storage full: nothing can be saved until disk space is freed";

/** How long the health check waits for the database before it answers that it cannot serve. */
export const HEALTH_TIMEOUT_MS = 2_000;

/**
 * Whether the database answers within `timeoutMs`: opened (and migrated) if it is not yet, then
 * asked for its latest migration. The reason names what failed in a few words and nothing of
 * the connection (host names, users); the error itself goes to the log.
 */
export async function databaseHealth(timeoutMs = HEALTH_TIMEOUT_MS): Promise<DatabaseHealth> {
  // An instance that cannot save is not one to send people to, though it still reads. No figures:
  // how much space this server has is nobody's business who can reach a public endpoint.
  if ((await storageReading()).level === "full") return { ok: false, reason: STORAGE_FULL_REASON };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DatabaseHealth>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `the database did not answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const check = (async (): Promise<DatabaseHealth> => {
    try {
      const migration = await latestMigration(await getDb());
      return migration ? { ok: true, migration } : { ok: false, reason: "no migration has been applied" };
    } catch (err) {
      log.error("[threadkeeper] health check: the database failed", err);
      return { ok: false, reason: "the database is unreachable or failed the query" };
    }
  })();
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
