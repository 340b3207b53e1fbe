// Archiving an import's sessions into memories (supabase/migrations/20261128000050_import_archive.sql):
// the progress lives on the import's row; the sessions are those that name the import.
import "server-only";
import type { Tx } from "./driver";
import { getImport, type ImportRow, type ImportStatus } from "./imports";

/**
 * Starts (or starts again) archiving the import's sessions; the ones archived before count as
 * done. Null when the import is not the caller's or is still being read, or archiving already runs.
 */
export async function beginArchive(tx: Tx, userId: string, id: string): Promise<ImportRow | null> {
  const rows = await tx.query<{ id: string }>(
    `update imports i set archive_status = 'running', archive_failed = 0, archive_updated_at = now(),
       archive_total = (select count(*) from sessions s where s.import_id = i.id),
       archived = (select count(*) from sessions s where s.import_id = i.id and s.archived_at is not null)
     where i.id = $1 and i.user_id = $2 and i.status <> 'running' and i.archive_status is distinct from 'running'
     returning i.id`,
    [id, userId],
  );
  return rows.length > 0 ? getImport(tx, userId, id) : null;
}

/** The next session of the import still to archive, after `afterId` (sessions that failed are not tried again in one run). */
export async function nextToArchive(tx: Tx, importId: string, afterId: string): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    `select id from sessions where import_id = $1 and archived_at is null and id > $2::uuid order by id limit 1`,
    [importId, afterId],
  );
  return row?.id ?? null;
}

/** Counts one session's outcome; false when archiving was cancelled meanwhile. */
export async function recordArchived(tx: Tx, id: string, ok: boolean): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `update imports set archived = archived + $2::int, archive_failed = archive_failed + $3::int, archive_updated_at = now()
     where id = $1 and archive_status = 'running' returning id`,
    [id, ok ? 1 : 0, ok ? 0 : 1],
  );
  return rows.length > 0;
}

/** Whether archiving is still to go on, touching it as alive. */
export async function archiveRunning(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(`update imports set archive_updated_at = now() where id = $1 and archive_status = 'running' returning id`, [id]);
  return rows.length > 0;
}

export async function finishArchive(tx: Tx, id: string, status: Exclude<ImportStatus, "running">): Promise<void> {
  await tx.query(`update imports set archive_status = $2, archive_updated_at = now() where id = $1 and archive_status = 'running'`, [id, status]);
}

export async function cancelArchiveRow(tx: Tx, userId: string, id: string): Promise<void> {
  await tx.query(`update imports set archive_status = 'cancelled', archive_updated_at = now() where id = $1 and user_id = $2 and archive_status = 'running'`, [id, userId]);
}
