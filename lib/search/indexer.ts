// The background half of history indexing: embeds messages after they are saved, off the
// send path. Saving a message only enqueues it (a trigger adds a pending row to
// message_embeddings); until this pass reaches it, search finds the message by full-text alone.
import "server-only";
import { redactSecrets } from "@/lib/redact";
import type { Database } from "@/lib/db";
import { pendingEmbeddings, storeEmbeddings } from "@/lib/db/history-search";
import { log } from "@/lib/log";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { HISTORY_EMBEDDING_DIMENSIONS } from "./history";

const BATCH = 128;
// Enough for any message's gist; the local embedder's cost grows with length, Voyage truncates.
const MAX_EMBED_CHARS = 8_000;
const MAX_BATCHES_PER_PASS = 8;

/**
 * Embeds up to `batch` pending messages (oldest first) and returns how many it did. The
 * embedding call runs between two short transactions, never inside one; a message embedded
 * twice by racing passes is harmless (same vector, the update only fills pending rows).
 */
export async function indexPendingMessages(db: Database, batch = BATCH): Promise<number> {
  const pending = await db.transaction((tx) => pendingEmbeddings(tx, batch, MAX_EMBED_CHARS));
  if (pending.length === 0) return 0;
  const embedder = getEmbedder(HISTORY_EMBEDDING_DIMENSIONS);
  // Redacted like everything derived from a conversation: a pasted key shapes no vector.
  const vectors = await embedder.embed(
    pending.map((p) => redactSecrets(p.text)),
    "document",
  );
  await db.transaction((tx) =>
    storeEmbeddings(
      tx,
      pending.map((p) => p.message_id),
      vectors.map((v) => (v.some((x) => x !== 0) ? toPgVector(v) : null)),
      embedder.model,
    ),
  );
  return pending.length;
}

/**
 * Drains the queue in this process: a pass every second, a few batches each. The function it
 * answers stops it between two batches (a batch is two short transactions around one embedding call).
 */
export function scheduleHistoryIndexer(db: Database): () => Promise<void> {
  let pass: Promise<void> | null = null;
  let stopping = false;
  const timer = setInterval(() => {
    if (pass) return;
    pass = (async () => {
      for (let i = 0; i < MAX_BATCHES_PER_PASS && !stopping; i++) if ((await indexPendingMessages(db)) < BATCH) break;
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
