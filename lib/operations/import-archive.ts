// "Archive these conversations into memories", offered when an import ends: every session the
// import made is archived as the session menu's Archive would (a summary memory and its facts),
// one at a time in the background, so a large import never holds the chat nor floods Claude.
// Progress is on the import's row; Cancel stops it between two sessions; a restart carries on
// with the sessions not yet archived.
import "server-only";
import type { ImportJson } from "@/lib/contract/imports";
import { getDb, withUser } from "@/lib/db";
import { archiveRunning, beginArchive, cancelArchiveRow, finishArchive, nextToArchive, recordArchived } from "@/lib/db/import-archive";
import { claimStaleImports, getImport } from "@/lib/db/imports";
import { conflict, notFound } from "@/lib/errors";
import { log } from "@/lib/log";
import { archiveSession } from "./archive";
import { importJson } from "./import-job";

/** Below any uuid: where a run starts. */
const FIRST = "00000000-0000-0000-0000-000000000000";
const running = new Set<string>();

export async function startArchive(userId: string, id: string): Promise<ImportJson> {
  const row = await withUser(userId, async (tx) => {
    const current = await getImport(tx, userId, id);
    if (!current) throw notFound("Import", id);
    if (current.status === "running") throw conflict("import_running", "The import is still being read; archive its conversations once it has finished.");
    if (current.archive_status === "running") return current;
    if (current.imported === 0) throw conflict("nothing_to_archive", "This import stored no conversations to archive.");
    return beginArchive(tx, userId, id);
  });
  if (!row) throw notFound("Import", id);
  void runArchive(userId, id);
  return importJson(row);
}

export async function runArchive(userId: string, id: string): Promise<void> {
  if (running.has(id)) return;
  running.add(id);
  try {
    for (let after = FIRST; ; ) {
      const next = await withUser(userId, async (tx) => ((await archiveRunning(tx, id)) ? nextToArchive(tx, id, after) : undefined));
      if (next === undefined) return; // cancelled
      if (next === null) break;
      after = next;
      const ok = await archiveSession(userId, next).then(
        () => true,
        (err: unknown) => {
          log.error(`[threadkeeper] archiving imported session ${next} failed:`, err);
          return false;
        },
      );
      if (!(await withUser(userId, (tx) => recordArchived(tx, id, ok)))) return;
    }
    await withUser(userId, (tx) => finishArchive(tx, id, "done"));
  } catch (err) {
    log.error(`[threadkeeper] archiving import ${id} stopped:`, err);
    await withUser(userId, (tx) => finishArchive(tx, id, "failed")).catch(() => {});
  } finally {
    running.delete(id);
  }
}

export async function cancelArchive(userId: string, id: string): Promise<void> {
  await withUser(userId, (tx) => cancelArchiveRow(tx, userId, id));
}

/** How long a running archive may go untouched before another start takes it over (a summary can take a while). */
const STALE_MS = 5 * 60_000;

/** At start-up: carries on archiving that a stopped process left running. */
export async function resumeArchives(): Promise<number> {
  const db = await getDb();
  const claimed = await claimStaleImports(db, db.kind === "pglite" ? 0 : STALE_MS, "archiving");
  for (const { id, user_id } of claimed) void runArchive(user_id, id);
  return claimed.length;
}
