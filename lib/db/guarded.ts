// What every database call goes through on its way out of lib/db: a full disk becomes the 507
// it means (lib/db/storage.ts) wherever it surfaces, in a statement or at commit, and an embedded
// call is announced to the watchdog (lib/db/watchdog.ts) while it may block the event loop.
import "server-only";
import type { Database, Tx } from "./driver";
import { asStorageFull } from "./storage";
import { dbCallEnded, dbCallStarted } from "./watchdog";

/** `fn`, with a full disk thrown as the 507 it means. */
async function mapped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asStorageFull(err);
  }
}

function guardedTx(tx: Tx): Tx {
  return {
    // Mapped here too, not only at the transaction's end: code inside it may catch a statement's
    // error and throw its own, and then the end would see a 500 where a full disk was.
    query: <T>(sql: string, params?: unknown[]) => mapped(() => tx.query<T>(sql, params)),
    exec: (sql) => mapped(() => tx.exec(sql)),
  };
}

export function guarded(db: Database): Database {
  const watched = db.kind === "pglite";
  const call = async <T>(fn: () => Promise<T>, long: boolean): Promise<T> => {
    if (watched) dbCallStarted(long);
    try {
      return await mapped(fn);
    } finally {
      if (watched) dbCallEnded(long);
    }
  };
  return {
    kind: db.kind,
    transaction: (fn) => call(() => db.transaction((tx) => fn(guardedTx(tx))), false),
    // VACUUM and the like: long by nature.
    execAutocommit: (sql) => call(() => db.execAutocommit(sql), true),
    close: () => db.close(),
    ...(db.pool ? { pool: db.pool } : {}),
    ...(db.listen ? { listen: db.listen } : {}),
  };
}
