// The background half of history indexing: embeds messages after they are saved, off the
// send path. Saving a message only enqueues it (a trigger adds a pending row to
// message_embeddings); until this pass reaches it, search finds the message by full-text alone.
// The same pass folds the word statistics' (and the usage rollup's) appended rows.
//
// Storing a vector inserts it into the HNSW index, and on PGlite (WebAssembly, no half-float
// instructions) that costs 10 to 50 ms a row, more as the graph grows: a batch of 128 rows in
// one statement held the database, health checks included, for 5 to 25 s. So vectors go in
// short transactions sized by time, and the background loop rests between them as long as it
// worked, leaving at least half of the thread to requests.
import "server-only";
import { redactSecrets } from "@/lib/redact";
import type { Database } from "@/lib/db";
import { pendingEmbeddings, storeEmbeddings } from "@/lib/db/history-search";
import { foldRollups } from "@/lib/db/rollups";
import { log } from "@/lib/log";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { yieldToLoop } from "@/lib/context/yield";
import { HISTORY_EMBEDDING_DIMENSIONS } from "./history";

const BATCH = 128;
// Enough for any message's gist; the local embedder's cost grows with length, Voyage truncates.
const MAX_EMBED_CHARS = 8_000;
const MAX_BATCHES_PER_PASS = 8;
/** How long one store transaction may hold the database, and the bounds of its size in rows. */
const STORE_TARGET_MS = 25;
const STORE_MIN = 1;
const STORE_MAX = 32;
/** Keys of each append-only rollup folded per transaction, and transactions per pass at most. */
const FOLD_KEYS = 500;
const MAX_FOLDS_PER_PASS = 8;

export interface IndexOptions {
  /** Between two store transactions, after one that took `ms` (the background loop rests). */
  between?: (ms: number) => Promise<void>;
  stopping?: () => boolean;
}

/**
 * Embeds up to `batch` pending messages (oldest first) and returns how many it did. The
 * embedding call runs outside any transaction; the vectors are stored a few rows per
 * transaction. A message embedded twice by racing passes is harmless (same vector, the update
 * only fills pending rows); one left pending by a stop is taken up by the next pass.
 */
export async function indexPendingMessages(db: Database, batch = BATCH, opts: IndexOptions = {}): Promise<number> {
  const pending = await db.transaction((tx) => pendingEmbeddings(tx, batch, MAX_EMBED_CHARS));
  if (pending.length === 0) return 0;
  const embedder = getEmbedder(HISTORY_EMBEDDING_DIMENSIONS);
  // Redacted like everything derived from a conversation: a pasted key shapes no vector.
  const vectors = await embedder.embed(
    pending.map((p) => redactSecrets(p.text)),
    "document",
  );
  const between = opts.between ?? (() => yieldToLoop());
  let size = 4;
  for (let from = 0; from < pending.length; ) {
    if (from > 0 && opts.stopping?.()) return from;
    const to = Math.min(pending.length, from + size);
    const t0 = performance.now();
    await db.transaction((tx) =>
      storeEmbeddings(
        tx,
        pending.slice(from, to).map((p) => p.message_id),
        vectors.slice(from, to).map((v) => (v.some((x) => x !== 0) ? toPgVector(v) : null)),
        embedder.model,
      ),
    );
    const ms = performance.now() - t0;
    const perRow = ms / (to - from);
    size = Math.max(STORE_MIN, Math.min(STORE_MAX, Math.floor(STORE_TARGET_MS / Math.max(perRow, 0.01))));
    from = to;
    // Also after the last: PGlite answers through promises alone, so a pass that never waits
    // on a timer would hold the thread from its first batch to its last.
    await between(ms);
  }
  return pending.length;
}

/**
 * Folds the rows the word statistics and the usage rollup per day and model took since the last
 * fold (lib/db/rollups.ts), a few hundred keys per transaction, resting between them as the
 * store does. Returns how many keys it folded.
 */
export async function foldPendingRollups(db: Database, opts: IndexOptions = {}): Promise<number> {
  const between = opts.between ?? (() => yieldToLoop());
  let total = 0;
  for (let i = 0; i < MAX_FOLDS_PER_PASS && !opts.stopping?.(); i++) {
    const t0 = performance.now();
    const n = await db.transaction((tx) => foldRollups(tx, FOLD_KEYS));
    total += n;
    await between(performance.now() - t0);
    if (n < FOLD_KEYS) break;
  }
  return total;
}

/**
 * Drains the queue in this process: a pass every second, a few batches each, then the fold of
 * the append-only rollups. The function it answers stops it between two transactions.
 */
export function scheduleHistoryIndexer(db: Database): () => Promise<void> {
  let pass: Promise<void> | null = null;
  let stopping = false;
  const opts: IndexOptions = {
    between: (ms) => new Promise((r) => setTimeout(r, Math.max(1, ms))),
    stopping: () => stopping,
  };
  const timer = setInterval(() => {
    if (pass) return;
    pass = (async () => {
      for (let i = 0; i < MAX_BATCHES_PER_PASS && !stopping; i++) if ((await indexPendingMessages(db, BATCH, opts)) < BATCH) break;
      await foldPendingRollups(db, opts);
    })()
      .catch((err: unknown) => log.error("[threadkeeper] history indexing pass failed; it will be retried", err))
      .finally(() => {
        pass = null;
      });
  }, 1_000);
  timer.unref();
  return async () => {
    stopping = true;
    clearInterval(timer);
    await pass;
  };
}
