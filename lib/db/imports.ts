// Imports (supabase/migrations/20261128000040_imports.sql): one row per uploaded export, with
// its progress and what failed; and the sessions each one made, found by their source's id.
import "server-only";
import type { ImportFormat } from "@/lib/import/types";
import type { Tx } from "./driver";

export type ImportStatus = "running" | "done" | "failed" | "cancelled";

export interface ImportError {
  source_id: string;
  title: string | null;
  reason: string;
}

export interface ImportRow {
  id: string;
  user_id: string;
  status: ImportStatus;
  file_name: string | null;
  format: ImportFormat | null;
  bytes: number;
  bytes_read: number;
  imported: number;
  skipped: number;
  failed: number;
  errors: ImportError[];
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  archive_status: ImportStatus | null;
  archive_total: number;
  archived: number;
  archive_failed: number;
}

const COLUMNS = `id, user_id, status, file_name, format, bytes::float8 as bytes, bytes_read::float8 as bytes_read, imported, skipped, failed,
  errors, error, created_at, updated_at, finished_at, archive_status, archive_total, archived, archive_failed`;

/** At most this many errors are kept on the row; `failed` counts them all. */
export const MAX_KEPT_ERRORS = 200;

export async function insertImport(tx: Tx, userId: string, i: { fileName: string | null; bytes: number }): Promise<ImportRow> {
  const [row] = await tx.query<ImportRow>(`insert into imports (user_id, file_name, bytes) values ($1, $2, $3) returning ${COLUMNS}`, [userId, i.fileName, i.bytes]);
  return row;
}

export async function getImport(tx: Tx, userId: string, id: string): Promise<ImportRow | null> {
  const [row] = await tx.query<ImportRow>(`select ${COLUMNS} from imports where id = $1 and user_id = $2`, [id, userId]);
  return row ?? null;
}

export async function listImports(tx: Tx, userId: string, limit: number): Promise<ImportRow[]> {
  return tx.query<ImportRow>(`select ${COLUMNS} from imports where user_id = $1 order by created_at desc limit $2`, [userId, limit]);
}

/** Adds one conversation's outcome (and the bytes read so far) to the row. */
export async function recordOutcome(
  tx: Tx,
  id: string,
  o: { format: ImportFormat | null; bytesRead: number; outcome: "imported" | "skipped" } | { format: ImportFormat | null; bytesRead: number; outcome: "failed"; error: ImportError },
): Promise<void> {
  await tx.query(
    `update imports set format = coalesce(format, $2), bytes_read = greatest(bytes_read, $3),
       imported = imported + ($4 = 'imported')::int, skipped = skipped + ($4 = 'skipped')::int, failed = failed + ($4 = 'failed')::int,
       errors = case when $5::text is null or jsonb_array_length(errors) >= $6 then errors else errors || jsonb_build_array($5::text::jsonb) end,
       updated_at = now()
     where id = $1 and status = 'running'`,
    [id, o.format, o.bytesRead, o.outcome, o.outcome === "failed" ? JSON.stringify(o.error) : null, MAX_KEPT_ERRORS],
  );
}

/** Ends a running import (a cancelled one stays cancelled). */
export async function finishImport(tx: Tx, id: string, status: Exclude<ImportStatus, "running">, error: string | null = null): Promise<void> {
  await tx.query(`update imports set status = $2, error = $3, finished_at = now(), updated_at = now() where id = $1 and status = 'running'`, [id, status, error]);
}

/**
 * The session a source conversation was imported into before, if any; for Threadkeeper's own
 * export also the session itself, when it was exported from this account and is still here.
 */
export async function importedSession(tx: Tx, userId: string, format: ImportFormat, sourceId: string): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    `select id from sessions where user_id = $1 and ((import_format = $2 and import_source_id = $3) or ($2 = 'threadkeeper' and id::text = $3))`,
    [userId, format, sourceId],
  );
  return row?.id ?? null;
}

/** Marks a new session as the import of a source conversation, with the source's times. */
export async function markImported(
  tx: Tx,
  sessionId: string,
  m: { format: ImportFormat; sourceId: string; createdAt: string | null; updatedAt: string | null },
  importId: string,
): Promise<void> {
  await tx.query(
    `update sessions set import_format = $2, import_source_id = $3, created_at = coalesce($4::timestamptz, created_at),
       updated_at = coalesce($5::timestamptz, $4::timestamptz, updated_at), last_message_at = coalesce($5::timestamptz, $4::timestamptz, last_message_at),
       import_id = $6
     where id = $1`,
    [sessionId, m.format, m.sourceId, m.createdAt, m.updatedAt, importId],
  );
}

/**
 * Running imports nobody has moved for `staleMs` (the process reading them stopped), claimed for
 * this process by touching them, so a second instance starting at once does not read them too.
 * `phase`: the reading of the file, or the archiving of its sessions into memories.
 */
export async function claimStaleImports(
  db: { transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> },
  staleMs: number,
  phase: "reading" | "archiving" = "reading",
): Promise<{ id: string; user_id: string }[]> {
  const [status, touched] = phase === "reading" ? ["status", "updated_at"] : ["archive_status", "archive_updated_at"];
  return db.transaction((tx) =>
    tx.query<{ id: string; user_id: string }>(
      `update imports set ${touched} = now() where id in (
         select id from imports where ${status} = 'running' and ${touched} < now() - make_interval(secs => $1 / 1000.0) for update skip locked)
       returning id, user_id`,
      [staleMs],
    ),
  );
}

/** Whether the import is still to go on (not cancelled, not ended), touching it as alive. */
export async function stillRunning(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(`update imports set updated_at = now() where id = $1 and status = 'running' returning id`, [id]);
  return rows.length > 0;
}

export async function cancelImportRow(tx: Tx, userId: string, id: string): Promise<ImportRow | null> {
  await tx.query(`update imports set status = 'cancelled', finished_at = now(), updated_at = now() where id = $1 and user_id = $2 and status = 'running'`, [id, userId]);
  return getImport(tx, userId, id);
}

export async function setImportBytes(tx: Tx, id: string, bytes: number): Promise<void> {
  await tx.query(`update imports set bytes = $2 where id = $1`, [id, bytes]);
}
