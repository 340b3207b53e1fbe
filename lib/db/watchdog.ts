// PGlite runs on the main thread: when it stalls inside WASM (it spins forever once its WAL could
// not grow, docs/pglite-wal-stall.md), no timer, request or signal handler of ours runs again and
// the process answers nothing, health included. So the watch is kept from another thread. The
// main thread publishes, in shared memory, whether a database call is in flight and when its
// event loop last turned; the watcher ends the process when a call has kept the loop from turning
// for longer than the limit. A supervisor (systemd, Docker's restart policy, Kubernetes) then
// starts it again, and PGlite's recovery replays its WAL.
import "server-only";
import { Worker } from "node:worker_threads";

/** Slots of the shared buffer (BigInt64, milliseconds or counts). */
const IN_FLIGHT = 0;
const LOOP_BEAT = 1;
const LONG_IN_FLIGHT = 2;
const SLOTS = 3;

export const DEFAULT_WATCHDOG_MS = 60_000;
/** Migrations, VACUUM and index builds may legitimately hold the loop far longer than a query. */
export const LONG_OPERATION_FACTOR = 10;
/** How often the main thread says it is alive, and the watcher looks. */
const BEAT_MS = 1_000;

interface Holder {
  slots: BigInt64Array;
  worker?: Worker;
  beat?: NodeJS.Timeout;
}
const holder = ((globalThis as { __threadkeeperWatchdog?: Holder }).__threadkeeperWatchdog ??= {
  slots: new BigInt64Array(new SharedArrayBuffer(SLOTS * BigInt64Array.BYTES_PER_ELEMENT)),
});

/** A database call starts (before it may block); `long`: a migration or VACUUM. */
export function dbCallStarted(long = false): void {
  Atomics.add(holder.slots, IN_FLIGHT, 1n);
  if (long) Atomics.add(holder.slots, LONG_IN_FLIGHT, 1n);
}

export function dbCallEnded(long = false): void {
  Atomics.sub(holder.slots, IN_FLIGHT, 1n);
  if (long) Atomics.sub(holder.slots, LONG_IN_FLIGHT, 1n);
}

export interface WatchdogOptions {
  limitMs: number;
  /** Named in the log line, so whoever reads it knows which disk to look at. */
  dataDir: string;
  json: boolean;
}

// The watcher's code, run with `eval` so that no separate file has to survive Next.js's bundling.
// It writes with fs.writeSync(2): console in a worker goes through the main thread, which is the
// one stuck. SIGKILL because a handled signal (SIGTERM is ours, for the graceful shutdown) would
// wait for the stuck thread, and SIGABRT would dump a core the size of the WASM heap.
const WATCHER = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { slots, limitMs, factor, beatMs, dataDir, json } = workerData;
function freeMb() {
  try { const s = fs.statfsSync(dataDir); return (Number(s.bavail) * Number(s.bsize) / 1048576).toFixed(1) + " MB"; }
  catch (e) { return "unknown (" + e.code + ")"; }
}
setInterval(() => {
  if (Atomics.load(slots, ${IN_FLIGHT}) <= 0n) return;
  const limit = Atomics.load(slots, ${LONG_IN_FLIGHT}) > 0n ? limitMs * factor : limitMs;
  const blocked = Date.now() - Number(Atomics.load(slots, ${LOOP_BEAT}));
  if (blocked < limit) return;
  const msg = "[threadkeeper] FATAL database stall: a call to the embedded database (PGlite, data folder " + dataDir +
    ") has blocked the server for " + Math.round(blocked / 1000) + " s (limit " + Math.round(limit / 1000) + " s, THREADKEEPER_DB_WATCHDOG_MS); " +
    "free space on its device: " + freeMb() + ". PGlite spins forever when its WAL cannot grow (a full disk). " +
    "Ending the process (SIGKILL) so that its supervisor restarts it; free disk space first (docs/operations.md#storage-full).";
  fs.writeSync(2, (json ? JSON.stringify({ time: new Date().toISOString(), level: "error", msg }) : msg) + "\\n");
  process.kill(process.pid, "SIGKILL");
}, beatMs);
`;

/**
 * Starts the watcher; answers a function that stops it. Only for the embedded database:
 * postgres.js waits on the network without blocking the loop, and PostgreSQL's
 * statement_timeout bounds its statements.
 */
export function startWatchdog(opts: WatchdogOptions): () => Promise<void> {
  const { slots } = holder;
  Atomics.store(slots, LOOP_BEAT, BigInt(Date.now()));
  const beat = setInterval(() => Atomics.store(slots, LOOP_BEAT, BigInt(Date.now())), BEAT_MS);
  beat.unref();
  const worker = new Worker(WATCHER, {
    eval: true,
    workerData: { slots, limitMs: opts.limitMs, factor: LONG_OPERATION_FACTOR, beatMs: BEAT_MS, dataDir: opts.dataDir, json: opts.json },
  });
  // Never what keeps the process alive.
  worker.unref();
  holder.worker = worker;
  holder.beat = beat;
  return async () => {
    clearInterval(beat);
    await worker.terminate();
    if (holder.worker === worker) holder.worker = holder.beat = undefined;
  };
}

/** Whether a watcher runs (a second start would only add a second one). */
export function watchdogRunning(): boolean {
  return holder.worker !== undefined;
}
