// Runs once when the server starts: opens and migrates the database (PGlite's first start runs
// initdb, about 2 s), tidies up after a crash, starts the background loops, starts tracing when
// an OTLP endpoint is configured, and takes over SIGTERM for a graceful shutdown
// (docs/operations.md).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  const { log } = await import("./lib/log");
  const { tracesConfigured, startTracing } = await import("./lib/tracing");
  const stopTracing = tracesConfigured() ? await startTracing() : null;
  if (stopTracing) log.info("[threadkeeper] tracing: spans go to the OTLP endpoint configured");

  const { getDb } = await import("./lib/db");
  const { scheduleSweep, scheduleVacuum, sweepStaleStreams } = await import("./lib/db/maintenance");
  const db = await getDb().catch((err: unknown) => {
    // A server without its database would answer every request with a 500: better a process that
    // ends, says why, and is restarted by its supervisor (or fixed by its person).
    log.error(`[threadkeeper] cannot open the database, exiting: ${err instanceof Error ? err.message : String(err)}`);
    if (!(err instanceof Error && err.name === "FolderLockedError")) log.error("[threadkeeper] the error:", err);
    process.exit(1);
  });
  const swept = await sweepStaleStreams(db, { atStartup: true });
  if (swept > 0) log.info(`[threadkeeper] ${swept} reply(ies) cut off by a restart marked interrupted`);
  // After opening: migrations ran unwatched, however long they took.
  if (db.kind === "pglite") await startDatabaseWatchdog();
  const timers = [scheduleSweep(db)];
  if (db.kind === "pglite") timers.push(scheduleVacuum(db));
  const { scheduleDeliveries } = await import("./lib/webhooks/deliver");
  const stopDeliveries = scheduleDeliveries(db, { backoffMs: env().THREADKEEPER_WEBHOOK_BACKOFF_MS ?? 10_000 });
  // The token counter's tables take 150 to 250 ms to load: here, before the first request,
  // not inside it, where every other request would wait for them.
  const { warmTokenizer } = await import("./lib/tokens/tokenizer");
  warmTokenizer();
  const { scheduleHistoryIndexer } = await import("./lib/search/indexer");
  const stopIndexer = scheduleHistoryIndexer(db);
  // Imports a stopped process left half read carry on from their files.
  const { resumeImports } = await import("./lib/operations/import-job");
  const resumed = await resumeImports().catch((err: unknown) => {
    log.error("[threadkeeper] could not resume imports:", err);
    return 0;
  });
  if (resumed > 0) log.info(`[threadkeeper] ${resumed} import(s) a restart cut short carry on`);
  const { resumeArchives } = await import("./lib/operations/import-archive");
  const archiving = await resumeArchives().catch((err: unknown) => {
    log.error("[threadkeeper] could not resume archiving imported sessions:", err);
    return 0;
  });
  if (archiving > 0) log.info(`[threadkeeper] archiving ${archiving} import(s) into memories carries on`);

  // Only a production server: `next dev` restarts its worker on its own terms.
  if (process.env.NODE_ENV !== "production") return;
  const { shutDown, DEFAULT_SHUTDOWN_GRACE_MS } = await import("./lib/shutdown");
  const { abortAllTurns } = await import("./lib/operations/stop");
  // Next.js's own handler stops listening at once and then waits, without limit, for every open
  // response (a reply being streamed included) before it exits. Ours keeps answering (503 for new
  // API requests, so a load balancer moves on), bounds the wait and saves what the turns have.
  process.removeAllListeners("SIGTERM");
  process.once("SIGTERM", () => {
    void shutDown({
      graceMs: env().THREADKEEPER_SHUTDOWN_GRACE_MS ?? DEFAULT_SHUTDOWN_GRACE_MS,
      abortTurns: abortAllTurns,
      stopLoops: async () => {
        for (const timer of timers) clearInterval(timer);
        await Promise.all([stopDeliveries(), stopIndexer()]);
      },
      close: async () => {
        await stopTracing?.();
        await db.close();
      },
      exit: (code) => process.exit(code),
    });
  });
}

/** The embedded database's stall watchdog (lib/db/watchdog.ts), unless turned off. */
async function startDatabaseWatchdog() {
  const { dataDir, env } = await import("./lib/env");
  const { log } = await import("./lib/log");
  const { DEFAULT_WATCHDOG_MS, startWatchdog, watchdogRunning } = await import("./lib/db/watchdog");
  const limitMs = env().THREADKEEPER_DB_WATCHDOG_MS ?? DEFAULT_WATCHDOG_MS;
  if (limitMs === 0 || watchdogRunning() || dataDir().startsWith("memory://")) return;
  startWatchdog({ limitMs, dataDir: dataDir(), json: env().THREADKEEPER_LOG_FORMAT === "json" });
  log.info(`[threadkeeper] database watchdog: a call blocking the server over ${limitMs / 1000} s ends the process`);
}
