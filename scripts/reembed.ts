// `npm run memory:reembed`: re-embed stored memories with the configured embedder. Stop the
// app first when using the embedded database (one process per data folder).
import { getDb } from "@/lib/db";
import { reembedAll } from "@/lib/operations/reembed";

async function main(): Promise<void> {
  const db = await getDb();
  try {
    const n = await reembedAll(db);
    console.log(n === 0 ? "every memory already uses the current embedding model" : `done: ${n} memories re-embedded`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
