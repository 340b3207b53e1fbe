// Opens and migrates the database when the server starts, not on the first request
// (PGlite's first start runs initdb, about 2 s), and tidies up after a crash.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./lib/db");
  const { scheduleSweep, scheduleVacuum, sweepStaleStreams } = await import("./lib/db/maintenance");
  const db = await getDb();
  const swept = await sweepStaleStreams(db, { atStartup: true });
  if (swept > 0) console.log(`[threadkeeper] ${swept} reply(ies) cut off by a restart marked interrupted`);
  scheduleSweep(db);
  if (db.kind === "pglite") scheduleVacuum(db);
  const { scheduleDeliveries } = await import("./lib/webhooks/deliver");
  const { env } = await import("./lib/env");
  scheduleDeliveries(db, { backoffMs: env().THREADKEEPER_WEBHOOK_BACKOFF_MS ?? 10_000 });
  const { scheduleHistoryIndexer } = await import("./lib/search/indexer");
  scheduleHistoryIndexer(db);
}
