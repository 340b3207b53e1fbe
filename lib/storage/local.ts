// The local file store: one file per object in a folder on this machine, content-addressed as
// `<root>/<userId>/<sha[0..2]>/<sha>`. The two-character level keeps any one folder to a few
// hundred entries however many files a user has. For one instance (local mode, or a single
// server); instances that share a database need a shared store (supabase.ts).
import "server-only";
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, statfs, unlink } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env";
import { storageFull } from "@/lib/errors";
import { log } from "@/lib/log";
import { DEFAULT_FLOOR_MB, isStorageFullError } from "@/lib/db/storage";
import { checkKey, checkObject, type FileStore } from "./store";

const MB = 1024 * 1024;
/** Marks a write in progress; never a valid object name (those are 64 hex digits), so never read as one. */
const TEMP_SUFFIX = ".tmp";

/** Where an object lives under the root. Only after checkKey: both parts are then safe path segments. */
function objectPath(root: string, userId: string, sha256: string): string {
  return path.join(root, userId, sha256.slice(0, 2), sha256);
}

function errnoOf(err: unknown): string | undefined {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** Whether `err` says the path (or a folder on the way) is not there: a missing object. */
function isMissing(err: unknown): boolean {
  const code = errnoOf(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** A full disk is the app's 507 (as for the database), anything else stays what it is. */
function asStoreError(err: unknown): unknown {
  if (!isStorageFullError(err)) return err;
  log.error("[threadkeeper] the file store's disk is full; uploads fail with 507 storage_full until space is freed", err);
  return Object.assign(storageFull(), { cause: err });
}

export class LocalFileStore implements FileStore {
  readonly kind = "local" as const;

  constructor(readonly root: string) {}

  async put(userId: string, sha256: string, bytes: Uint8Array, _mediaType: string): Promise<void> {
    checkObject(userId, sha256, bytes);
    const target = objectPath(this.root, userId, sha256);
    // Content-addressed: a file of the right size under this name already holds these bytes
    // (renames are atomic, so nothing half-written ever carries the real name). A file of
    // another size is not ours to trust and is replaced below.
    const existing = await stat(target).catch((err: unknown) => (isMissing(err) ? null : Promise.reject(err)));
    if (existing?.isFile() && existing.size === bytes.byteLength) return;
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await this.assertRoom(bytes.byteLength);
      await writeAtomically(target, bytes);
    } catch (err) {
      throw asStoreError(err);
    }
  }

  async get(userId: string, sha256: string): Promise<Uint8Array | null> {
    checkKey(userId, sha256);
    try {
      const buf = await readFile(objectPath(this.root, userId, sha256));
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      // A folder under an object's name (put never makes one) holds no object either.
      if (isMissing(err) || errnoOf(err) === "EISDIR") return null;
      throw err;
    }
  }

  async remove(userId: string, sha256s: readonly string[]): Promise<void> {
    // All keys checked before any is removed: a bad one is a bug, and half a removal hides it.
    for (const sha of sha256s) checkKey(userId, sha);
    for (const sha of new Set(sha256s)) {
      await unlink(objectPath(this.root, userId, sha)).catch((err: unknown) => {
        if (!isMissing(err)) throw err;
      });
    }
    // The folders stay: removing an emptied one would race a put that just created it.
  }

  /**
   * The store usually shares its disk with the embedded database (the folder beside it), and
   * PGlite does not survive its WAL failing to grow (docs/pglite-wal-stall.md): so an upload that
   * would leave less than the database's floor free is refused with the same 507, before a byte
   * is written. THREADKEEPER_STORAGE_FLOOR_MB=0 turns it off, as for the database.
   */
  private async assertRoom(size: number): Promise<void> {
    const floor = (env().THREADKEEPER_STORAGE_FLOOR_MB ?? DEFAULT_FLOOR_MB) * MB;
    if (floor === 0) return;
    const s = await statfs(this.root).catch(() => null);
    // Unreadable (an unusual file system): the write itself will say if the disk is full.
    if (s && s.bavail * s.bsize - size < floor) throw storageFull();
  }
}

/**
 * Writes `bytes` to `target` so that a crash at any moment leaves either no file or the whole file
 * under that name: a temporary file in the same folder (so the rename stays on one file system
 * and is atomic), flushed to disk, then renamed; the folder is flushed too so the rename itself
 * survives a power cut. On any failure the temporary file is removed.
 */
async function writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
  try {
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => {});
    throw err;
  }
  await syncFolder(dir);
}

/** fsync of a folder: not possible everywhere (Windows), where the rename is as durable as it gets. */
async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = errnoOf(err);
    if (code !== "EISDIR" && code !== "EPERM" && code !== "EINVAL" && code !== "EBADF") throw err;
  }
}
