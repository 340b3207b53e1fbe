import "server-only";
import type { Database } from "@/lib/db";
import { memoriesToReembed, setMemoryEmbedding } from "@/lib/db/memories";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";

const BATCH = 64;

/**
 * After a change of embedding model, re-embeds every memory stored with another model (search
 * compares only rows of the current model, so until then they are not found by similarity).
 * Runs as the database owner across all users; the embedded server must not be running.
 */
export async function reembedAll(db: Database, log: (line: string) => void = console.log): Promise<number> {
  const embedder = getEmbedder();
  let done = 0;
  for (;;) {
    const rows = await db.transaction((tx) => memoriesToReembed(tx, embedder.model, BATCH));
    if (rows.length === 0) break;
    const vectors = await embedder.embed(
      rows.map((r) => r.summary),
      "document",
    );
    await db.transaction(async (tx) => {
      for (const [i, r] of rows.entries()) {
        const v = vectors[i];
        await setMemoryEmbedding(tx, r.id, v.some((x) => x !== 0) ? toPgVector(v) : null, embedder.model);
      }
    });
    done += rows.length;
    log(`re-embedded ${done} memories with ${embedder.model}`);
  }
  return done;
}
