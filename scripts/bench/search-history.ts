// The history the search benchmark searches: N messages of one user beside another user's,
// each embedded, on PGlite or a throwaway PostgreSQL 15 cluster.
//
// Seeding is SQL (generate_series). Each message is two sentences from two pools of 1,000
// (so 1M distinct texts); its embedding is the normalized sum of its sentences' embeddings,
// computed once per sentence by the app's embedder (for the local lexical embedder that is
// close to embedding the whole text: its features add up). The full-text, recency and HNSW
// indexes are built once after the load, as a restore would, with their migrations' definitions.
//
// Where: PGlite for small sizes; a throwaway real PostgreSQL 15 + pgvector cluster
// (tests/pg/cluster.ts, Supabase-like roles, the app's migrations, queries as `authenticated`
// with RLS on, as in production) for sizes of 100,000 and more when its binaries are installed
// (PGlite needs minutes to build HNSW over 25K vectors). BENCH_SEARCH_PG=1 uses PostgreSQL for
// every size, BENCH_SEARCH_PG=0 PGlite for every size. On PostgreSQL the HNSW build gets a large
// maintenance_work_mem and 2 parallel workers (the index parameters stay the migration's).
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { LOCAL_USER_ID, openEmbedded, prepare, type Database } from "@/lib/db";
import { fromPostgres } from "@/lib/db/driver";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { HISTORY_EMBEDDING_DIMENSIONS } from "@/lib/search/history";
import { assistantText, rng, userText } from "./corpus";
import { applyFixture, missingPrerequisite, startCluster, SUPERUSER } from "../../tests/pg/cluster";

export const HEAVY = LOCAL_USER_ID;
const OTHER = "23000000-0000-4000-8000-000000000002";
const POOL = 1_000;
const PER_SESSION = 500;
/** The app's login role on the cluster, as in tests/pg (Supabase's `postgres`, not a superuser). */
const APP_ROLE = "postgres";
/** Indexes dropped for the load and built after it, from their own definitions. */
const BULK_INDEXES = ["messages_search_idx", "messages_user_created_idx", "message_embeddings_hnsw_idx"];

export async function sentencePools(): Promise<{ a: string[]; b: string[]; av: string[]; bv: string[]; model: string }> {
  const r = rng(11);
  const a = Array.from({ length: POOL }, () => userText(r).slice(0, 400));
  const b = Array.from({ length: POOL }, () => assistantText(r).slice(0, 600));
  const e = getEmbedder(HISTORY_EMBEDDING_DIMENSIONS);
  const vec = async (xs: string[]) => (await e.embed(xs, "document")).map((v) => toPgVector(v));
  return { a, b, av: await vec(a), bv: await vec(b), model: e.model };
}

async function seed(db: Database, user: string, idPrefix: string, messages: number, pools: Pools) {
  const sessions = Math.max(1, Math.ceil(messages / PER_SESSION));
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into sessions (id, user_id, title, model, next_seq, created_at, updated_at)
       select ($2 || lpad(to_hex(n), 12, '0'))::uuid, $1, 'Bench session ' || n, 'claude-sonnet-4-5', $4 + 1,
         now() - make_interval(days => 365 - (n * 365 / $3)), now() - make_interval(days => 365 - (n * 365 / $3))
       from generate_series(0, $3 - 1) n`,
      [user, `${idPrefix}-4000-8000-`, sessions, PER_SESSION],
    );
  });
  // In slices, so no one statement holds the whole load in memory. Each message's embedding
  // goes in with it (the enqueue trigger is off during the load).
  const slice = 100_000;
  for (let lo = 0; lo < messages; lo += slice) {
    const hi = Math.min(messages, lo + slice);
    await db.transaction((tx) =>
      tx.query(
        `with ins as (
           insert into messages (session_id, user_id, seq, turn_seq, role, content, text, status, created_at)
           select ($2 || lpad(to_hex(i / ${PER_SESSION}), 12, '0'))::uuid, $1, i % ${PER_SESSION} + 1, (i % ${PER_SESSION}) / 2 + 1,
             case when i % 2 = 0 then 'user' else 'assistant' end, '[]'::jsonb,
             ($3::text[])[(i::bigint * 2654435761) % ${POOL} + 1] || ' ' || ($7::text[])[(i::bigint * 40503 + 7) % ${POOL} + 1], 'complete',
             now() - make_interval(secs => ($4 - i) * (365 * 86400.0 / $4))
           from generate_series($5::int, $6::int - 1) i
           returning id, user_id, session_id, seq)
         insert into message_embeddings (message_id, user_id, model, embedding)
         select ins.id, ins.user_id, $8, l2_normalize(a.v + b.v)
         from ins
         cross join lateral (select ('x' || right(ins.session_id::text, 12))::bit(48)::bigint * ${PER_SESSION} + ins.seq - 1 as i) k
         join bench_pool_a a on a.i = (k.i * 2654435761) % ${POOL}
         join bench_pool_b b on b.i = (k.i * 40503 + 7) % ${POOL}`,
        [user, `${idPrefix}-4000-8000-`, pools.a, messages, lo, hi, pools.b, pools.model],
      ),
    );
  }
}

async function loadPools(db: Database, pools: Pools): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`create table bench_pool_a (i int primary key, v halfvec(256))`);
    await tx.query(`create table bench_pool_b (i int primary key, v halfvec(256))`);
    await tx.query(`insert into bench_pool_a select n - 1, v::halfvec from unnest($1::text[]) with ordinality as t(v, n)`, [pools.av]);
    await tx.query(`insert into bench_pool_b select n - 1, v::halfvec from unnest($1::text[]) with ordinality as t(v, n)`, [pools.bv]);
    await tx.query(`alter table messages disable trigger messages_enqueue_embedding`);
  });
}

/** Where one size runs: the database, a superuser's statement (auth.users), and its teardown. */
export interface Engine {
  kind: "pglite" | "postgres";
  db: Database;
  asSuperuser(sql: string, params: unknown[]): Promise<void>;
  close(): Promise<void>;
}

function usePostgres(messages: number): boolean {
  const forced = process.env.BENCH_SEARCH_PG;
  if (forced === "1") {
    const missing = missingPrerequisite();
    if (missing) throw new Error(`BENCH_SEARCH_PG=1 but PostgreSQL is not usable here: ${missing}`);
    return true;
  }
  if (forced === "0") return false;
  return messages >= 100_000 && missingPrerequisite() === null;
}

export async function openEngine(messages: number): Promise<Engine> {
  if (!usePostgres(messages)) {
    const db = await openEmbedded("memory://");
    return { kind: "pglite", db, asSuperuser: async (sql, params) => void (await db.transaction((tx) => tx.query(sql, params))), close: () => db.close() };
  }
  // A production-like buffer cache (a quarter of this machine's RAM would be 6 GB; 2 GB holds
  // the 1M-message working set of the queries) and room for the parallel HNSW build.
  const cluster = await startCluster({ shared_buffers: "2GB", max_worker_processes: "8", max_parallel_maintenance_workers: "2" });
  try {
    await applyFixture(cluster.url(SUPERUSER));
    const admin = postgres(cluster.url(SUPERUSER), { max: 1, onnotice: () => {} });
    const db = fromPostgres(postgres(cluster.url(APP_ROLE), { max: 4, onnotice: () => {} }));
    await prepare(db, false);
    console.log(`  PostgreSQL 15 cluster on 127.0.0.1:${cluster.port}`);
    return {
      kind: "postgres",
      db,
      asSuperuser: async (sql, params) => void (await admin.unsafe(sql, params as never[])),
      close: async () => {
        await db.close();
        await admin.end({ timeout: 5 });
        await cluster.stop();
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

export type Pools = Awaited<ReturnType<typeof sentencePools>>;

export interface Seeded {
  seedMs: number;
  hnswMs: number;
  /** The newest of the heavy user's seeded sessions (for the within-one-session query). */
  session: string;
}

/** Loads `messages` of the heavy user and `otherMessages` of another, then builds the indexes. */
export async function seedHistory(engine: Engine, messages: number, otherMessages: number, pools: Pools): Promise<Seeded> {
  const db = engine.db;
  await engine.asSuperuser(`insert into auth.users (id, email) values ($1, 'other@bench') on conflict do nothing`, [OTHER]);
  const t0 = performance.now();
  const definitions = await db.transaction(async (tx) => {
    const rows = await tx.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and indexname = any($1::text[])`,
      [BULK_INDEXES],
    );
    for (const r of rows) await tx.query(`drop index public.${r.name}`);
    return new Map(rows.map((r) => [r.name, r.def]));
  });
  if (definitions.size !== BULK_INDEXES.length) throw new Error(`search bench: expected indexes ${BULK_INDEXES.join(", ")}, found ${[...definitions.keys()].join(", ")}`);
  await loadPools(db, pools);
  await seed(db, HEAVY, "31000000-0000", messages, pools);
  await seed(db, OTHER, "32000000-0000", otherMessages, pools);
  await db.transaction((tx) => tx.exec(`alter table messages enable trigger messages_enqueue_embedding; drop table bench_pool_a, bench_pool_b`));
  const session = `31000000-0000-4000-8000-${(Math.floor(messages / PER_SESSION) - 1).toString(16).padStart(12, "0")}`;
  const loadMs = performance.now() - t0;
  const tText = performance.now();
  await db.transaction(async (tx) => {
    if (engine.kind === "postgres") await tx.query(`set local maintenance_work_mem = '2GB'`);
    await tx.query(definitions.get("messages_search_idx")!);
    await tx.query(definitions.get("messages_user_created_idx")!);
  });
  const textIndexMs = performance.now() - tText;
  const t1 = performance.now();
  await db.transaction(async (tx) => {
    // The graph must fit in maintenance_work_mem or the build slows down by an order of
    // magnitude (about 1 GB at 1M halfvec(256) rows); this machine has 23 GB.
    if (engine.kind === "postgres") {
      await tx.query(`set local maintenance_work_mem = '8GB'`);
      await tx.query(`set local max_parallel_maintenance_workers = 2`);
    }
    await tx.query(definitions.get("message_embeddings_hnsw_idx")!);
  });
  const hnswMs = performance.now() - t1;
  await db.execAutocommit("vacuum analyze");
  console.log(
    `  ${engine.kind}: loaded and embedded in ${(loadMs / 1000).toFixed(1)} s, full-text and recency indexes built in ${(textIndexMs / 1000).toFixed(1)} s, ` +
      `HNSW index built in ${(hnswMs / 1000).toFixed(1)} s`,
  );
  return { seedMs: loadMs + textIndexMs, hnswMs, session };
}
