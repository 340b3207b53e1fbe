// An import runs in the background of the process that received its file: each conversation is
// read (import-read.ts) and stored (import-store.ts) in a transaction of its own, with the event
// loop free between them, so the chat never waits for an import. Progress and failures are on
// the import's row; Cancel stops it between two conversations. A process that stops mid-import
// leaves the row running and the file on disk: the next start (instrumentation.ts) claims it
// and reads the file again from its start, and what was already stored is skipped by its id.
import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { ImportJson } from "@/lib/contract/imports";
import { getDb, withUser } from "@/lib/db";
import { isDataError } from "@/lib/db/driver";
import { cancelImportRow, claimStaleImports, finishImport, getImport, insertImport, listImports, recordOutcome, stillRunning, type ImportRow } from "@/lib/db/imports";
import { cancelArchiveRow } from "@/lib/db/import-archive";
import { filesDir } from "@/lib/env";
import type { ImportedConversation } from "@/lib/import/types";
import { notFound } from "@/lib/errors";
import { log } from "@/lib/log";
import { AccountRestore } from "./import-account";
import { ImportFileError, readExport } from "./import-read";
import { storeConversation } from "./import-store";

/** Uploaded exports wait here, owner-only, until their import ends. */
export const importsDir = () => path.join(filesDir(), "imports");
const fileOf = (id: string) => path.join(importsDir(), id);

/** A place for an upload that has no import yet. */
export async function uploadTarget(): Promise<string> {
  await mkdir(importsDir(), { recursive: true, mode: 0o700 });
  return path.join(importsDir(), `upload-${randomUUID()}`);
}

export function importJson(r: ImportRow): ImportJson {
  return {
    id: r.id,
    status: r.status,
    file_name: r.file_name,
    format: r.format,
    bytes: r.bytes,
    bytes_read: Math.min(r.bytes_read, r.bytes),
    imported: r.imported,
    skipped: r.skipped,
    failed: r.failed,
    errors: r.errors,
    error: r.error,
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
    archive: r.archive_status ? { status: r.archive_status, total: r.archive_total, archived: r.archived, failed: r.archive_failed } : null,
  };
}

/** Starts importing the file received at `upload`: the row now, the reading in the background. */
export async function startImport(userId: string, upload: string, received: { fileName: string | null; bytes: number }): Promise<ImportJson> {
  const row = await withUser(userId, (tx) => insertImport(tx, userId, received));
  await rename(upload, fileOf(row.id));
  void runImport(userId, row.id);
  return importJson(row);
}

/** Imports currently read by this process: a second run of the same one is never started here. */
const reading = new Set<string>();
/** How often, in conversations, a run checks that it was not cancelled. */
const CHECK_EVERY = 10;

export async function runImport(userId: string, id: string): Promise<void> {
  if (reading.has(id)) return;
  reading.add(id);
  const file = fileOf(id);
  try {
    const size = (await stat(file)).size;
    let n = 0;
    // Threadkeeper's own account ZIP: its files, restored before the sessions that carry them, and its memories.
    const account = new AccountRestore(userId, id);
    for await (const item of readExport(file, size)) {
      if (n++ % CHECK_EVERY === 0 && !(await withUser(userId, (tx) => stillRunning(tx, id)))) return;
      if ("conversation" in item) await storeOrReport(userId, id, item.conversation, item.bytesRead, account);
      else if ("account" in item) await account.take(item.account, item.bytesRead);
      else await withUser(userId, (tx) => recordOutcome(tx, id, { format: null, bytesRead: item.bytesRead, outcome: "failed", error: item.error }));
    }
    await account.finish();
    await withUser(userId, (tx) => finishImport(tx, id, "done"));
  } catch (err) {
    const known = err instanceof ImportFileError;
    if (!known) log.error(`[threadkeeper] import ${id} failed:`, err);
    const message = known ? err.message : "The import stopped on an unexpected error; the conversations stored before it are kept. Import the file again to carry on: what is already here is skipped.";
    await withUser(userId, (tx) => finishImport(tx, id, "failed", message)).catch(() => {});
  } finally {
    reading.delete(id);
    const row = await withUser(userId, (tx) => getImport(tx, userId, id)).catch(() => null);
    if (!row || row.status !== "running") await rm(file, { force: true });
  }
}

/** One conversation; the database refusing its data (a number out of range, say) fails it alone, as a parse error would. */
async function storeOrReport(userId: string, id: string, conv: ImportedConversation, bytesRead: number, account: AccountRestore): Promise<void> {
  try {
    await storeConversation(userId, id, conv, bytesRead, account);
  } catch (err) {
    if (!isDataError(err)) throw err;
    const error = { source_id: conv.sourceId, title: conv.title?.slice(0, 200) ?? null, reason: `it could not be stored: ${(err as Error).message}` };
    await withUser(userId, (tx) => recordOutcome(tx, id, { format: conv.format, bytesRead, outcome: "failed", error }));
  }
}

export async function importStatus(userId: string, id: string): Promise<ImportJson> {
  const row = await withUser(userId, (tx) => getImport(tx, userId, id));
  if (!row) throw notFound("Import", id);
  return importJson(row);
}

export async function importHistory(userId: string, limit: number): Promise<ImportJson[]> {
  return withUser(userId, async (tx) => (await listImports(tx, userId, limit)).map(importJson));
}

/** Stops a running import between two conversations, or its archiving between two sessions; what was stored stays. */
export async function cancelImport(userId: string, id: string): Promise<ImportJson> {
  const row = await withUser(userId, async (tx) => {
    await cancelArchiveRow(tx, userId, id);
    return cancelImportRow(tx, userId, id);
  });
  if (!row) throw notFound("Import", id);
  return importJson(row);
}

/** How long a running import may go untouched before another start takes it over. */
const STALE_MS = 2 * 60_000;

/** At start-up: carries on the imports a stopped process left running, whose files are here. */
export async function resumeImports(): Promise<number> {
  const db = await getDb();
  // The embedded database has one process: every running import was that of a process now gone.
  const claimed = await claimStaleImports(db, db.kind === "pglite" ? 0 : STALE_MS);
  let resumed = 0;
  for (const { id, user_id } of claimed) {
    const here = await stat(fileOf(id)).then(() => true, () => false);
    if (!here) {
      // Another instance received it, or its file was lost: nothing to read here.
      if (db.kind === "pglite") await withUser(user_id, (tx) => finishImport(tx, id, "failed", "The server stopped during this import and its file is gone; import the file again (what was stored is skipped)."));
      continue;
    }
    resumed++;
    void runImport(user_id, id);
  }
  return resumed;
}
