import "server-only";
import type { ContentBlock } from "@/lib/context/types";
import { log } from "@/lib/log";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import type { Database } from "./driver";
import { deleteExpired } from "./memories";

/**
 * Replies left `streaming` by a server that died keep the text flushed up to a second
 * before the crash; they become `interrupted` once their session's turn lease has expired
 * (so a reply another live instance is still streaming is left alone).
 */
export async function sweepStaleStreams(db: Database, opts: { atStartup?: boolean } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    // The embedded database has exactly one server process, so at its start-up every lease
    // belongs to a process that is gone.
    if (opts.atStartup && db.kind === "pglite") {
      await tx.query("update sessions set turn_lock_id = null, turn_lock_until = null where turn_lock_id is not null");
    }
    const stale = await tx.query<{ id: string; session_id: string; content: ContentBlock[] }>(
      `select m.id, m.session_id, m.content from messages m join sessions s on s.id = m.session_id
       where m.status = 'streaming' and (s.turn_lock_until is null or s.turn_lock_until < now())
       for update of m`,
    );
    for (const m of stale) {
      const tokens = m.content.length ? estimateMessageTokens("assistant", m.content) : 0;
      await tx.query(
        `update messages set status = 'interrupted', token_count = $2,
           error = '{"code":"server_restarted","message":"The server stopped while this reply was streaming."}'::jsonb
         where id = $1`,
        [m.id, tokens],
      );
      await tx.query(`update sessions set tail_tokens = tail_tokens + $2 where id = $1`, [m.session_id, tokens]);
    }
    return stale.length;
  });
}

/**
 * Streams orphaned by another instance's crash are swept once their lease expires, and
 * expired memories (already invisible) are deleted.
 */
export function scheduleSweep(db: Database, everyMs = 60_000): NodeJS.Timeout {
  const timer = setInterval(() => {
    sweepStaleStreams(db).catch((e: unknown) => log.error("[threadkeeper] sweep failed", e));
    db.transaction((tx) => deleteExpired(tx)).catch((e: unknown) => log.error("[threadkeeper] memory clean-up failed", e));
  }, everyMs);
  timer.unref();
  return timer;
}

/** PGlite runs no autovacuum; the embedded server vacuums on a schedule instead. */
export function scheduleVacuum(db: Database, everyMs = 60 * 60 * 1000): NodeJS.Timeout {
  const timer = setInterval(() => {
    db.execAutocommit("vacuum analyze").catch((e: unknown) => log.error("[threadkeeper] vacuum failed", e));
  }, everyMs);
  timer.unref();
  return timer;
}
