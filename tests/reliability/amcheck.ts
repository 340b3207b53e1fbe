// PostgreSQL's own corruption check (amcheck) over every B-tree index of an embedded data
// folder, the system catalog's included, run once nothing else has the folder open.
import { PGlite } from "@electric-sql/pglite";
import { amcheck } from "@electric-sql/pglite/contrib/amcheck";
import { vector } from "@electric-sql/pglite-pgvector";

/** The indexes amcheck found corrupt, each with what it said; empty when the folder is sound. */
export async function corruptIndexes(dataDir: string): Promise<string[]> {
  const pg = await PGlite.create(dataDir, { extensions: { amcheck, vector } });
  try {
    await pg.exec("create extension if not exists amcheck");
    const { rows } = await pg.query<{ name: string }>(
      `select c.oid::regclass::text as name from pg_index i
         join pg_class c on c.oid = i.indexrelid
         join pg_am am on am.oid = c.relam
        where am.amname = 'btree' and c.relpersistence <> 't' and i.indisvalid and i.indisready`,
    );
    const bad: string[] = [];
    for (const { name } of rows) {
      try {
        // heapallindexed: every row of the table must be findable through the index.
        await pg.query("select bt_index_check($1::regclass, true)", [name]);
      } catch (err) {
        bad.push(`${name}: ${(err as Error).message}`);
      }
    }
    return bad;
  } finally {
    await pg.close();
  }
}
