// A full disk is an answer, not a 500 and not a hang (docs/operations.md#storage-full). Two
// ways to know: the database says so (SQLSTATE 53100 from PGlite and PostgreSQL alike), and, for
// the embedded database, the data folder's free space, read with statfs. The second refuses
// writes before the first can happen, because PGlite does not survive its WAL failing to grow:
// its next call spins forever (docs/pglite-wal-stall.md).
import "server-only";
import { statfs } from "node:fs/promises";
import { env } from "@/lib/env";
import { storageFull } from "@/lib/errors";
import { log } from "@/lib/log";

/** PostgreSQL's `disk_full`; PGlite raises the same from its Emscripten file system. */
const DISK_FULL = "53100";

/** Node's and Emscripten's names for the same conditions, for errors that never became SQL. */
const NO_SPACE_ERRNO = new Set(["ENOSPC", "EDQUOT"]);
const NO_SPACE_TEXT = /no space left on device|disk quota exceeded/i;

/**
 * Whether `err` says the storage is full. Only 53100: the rest of class 53 is memory (53200),
 * connections (53300) or a configured limit (53400), which more disk would not fix.
 */
export function isStorageFullError(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code === DISK_FULL || (typeof code === "string" && NO_SPACE_ERRNO.has(code))) return true;
  return typeof message === "string" && NO_SPACE_TEXT.test(message);
}

/** How long a storage-full error from the database keeps health at 503 without a new one. */
export const STORAGE_FULL_MEMORY_MS = 60_000;

/** How long one statfs reading is trusted: a syscall per request would be waste. */
export const STATFS_CACHE_MS = 5_000;

const MB = 1024 * 1024;
/** PostgreSQL's WAL grows by whole 16 MB segments: less free than that and the next one fails. */
const WAL_SEGMENT_BYTES = 16 * MB;
/** Four segments: one the WAL may need, and the rest for tables and indexes meanwhile. */
export const DEFAULT_FLOOR_MB = 64;
export const DEFAULT_WARN_MB = 1024;

export type StorageLevel = "ok" | "low" | "full";

export interface StorageReading {
  level: StorageLevel;
  /** Free bytes on the data folder's device; null on PostgreSQL, whose disk this process cannot see. */
  freeBytes: number | null;
  warnBytes: number;
  floorBytes: number;
}

interface State {
  /** The embedded database's folder this process opened; none on PostgreSQL or in memory. */
  dir: string | null;
  lastFullAt: number;
  reading?: { at: number; freeBytes: number | null };
}
// On globalThis: the routes and instrumentation.ts may load this module in separate graphs.
const state = ((globalThis as { __threadkeeperStorage?: State }).__threadkeeperStorage ??= { dir: null, lastFullAt: 0 });

/** The database just said it is full; health answers 503 for a while. */
export function noteStorageFull(err: unknown): void {
  const first = Date.now() - state.lastFullAt > STORAGE_FULL_MEMORY_MS;
  state.lastFullAt = Date.now();
  // Once per episode, not once per refused request.
  if (first) log.error("[threadkeeper] the database's storage is full; writes fail with 507 storage_full until space is freed", err);
  // The next reading must not be an old one from before the disk filled.
  state.reading = undefined;
}

/** The thrown value as the 507 it means, or unchanged. */
export function asStorageFull(err: unknown): unknown {
  if (!isStorageFullError(err)) return err;
  noteStorageFull(err);
  return Object.assign(storageFull(), { cause: err });
}

function thresholds(): { floorBytes: number; warnBytes: number } {
  const e = env();
  return {
    floorBytes: (e.THREADKEEPER_STORAGE_FLOOR_MB ?? DEFAULT_FLOOR_MB) * MB,
    warnBytes: (e.THREADKEEPER_STORAGE_WARN_MB ?? DEFAULT_WARN_MB) * MB,
  };
}

/** Measure this folder's device from now on (the embedded database was opened in it); null: none. */
export function measureFolder(dir: string | null): void {
  state.dir = dir;
  state.reading = undefined;
}

async function freeBytes(now: number): Promise<number | null> {
  const cached = state.reading;
  if (cached && now - cached.at < STATFS_CACHE_MS) return cached.freeBytes;
  const dir = state.dir;
  let free: number | null = null;
  if (dir) {
    try {
      const s = await statfs(dir);
      // bavail, not bfree: what an unprivileged writer may still use.
      free = s.bavail * s.bsize;
    } catch (err) {
      // Not created yet, or gone: the database's own errors will tell.
      log.warn("[threadkeeper] could not read the data folder's free space", err);
    }
  }
  state.reading = { at: now, freeBytes: free };
  return free;
}

/**
 * Where the storage stands: full (under the floor, or the database said so lately), low, or
 * fine. A measurement showing room for a WAL segment again outweighs the database's last word,
 * so health recovers as soon as space is freed rather than a minute later.
 */
export async function storageReading(now = Date.now()): Promise<StorageReading> {
  const { floorBytes, warnBytes } = thresholds();
  const free = await freeBytes(now);
  const saidFull = now - state.lastFullAt < STORAGE_FULL_MEMORY_MS && (free === null || free < WAL_SEGMENT_BYTES);
  const level: StorageLevel =
    saidFull || (free !== null && free < floorBytes) ? "full" : free !== null && free < warnBytes ? "low" : "ok";
  return { level, freeBytes: free, warnBytes, floorBytes };
}

/**
 * Refuses a write while the data folder is under the floor. Only the measurement counts here, not
 * a recent error: a write that fits (a small row) may still succeed and should be let through.
 */
export async function assertRoomToWrite(now = Date.now()): Promise<void> {
  const { floorBytes } = thresholds();
  const free = await freeBytes(now);
  if (free !== null && free < floorBytes) throw storageFull();
}

/** For tests: forget the readings and errors seen. */
export function resetStorageState(): void {
  state.lastFullAt = 0;
  state.reading = undefined;
}
