// History search at scale: 100K and 1M messages of one user (beside another user's), each
// embedded, and the session picker's keyword search on the same history; plus what indexing
// adds to saving a message.
//
// The history is seeded by search-history.ts (on a throwaway PostgreSQL 15 cluster from
// 100,000 messages).
// Environment: BENCH_SEARCH_SIZES ("100000,1000000"), BENCH_SEARCH_OTHER (50000 messages of the
// other user), BENCH_SEARCH_RUNS (30), BENCH_SEARCH_PG (see above).
import { performance } from "node:perf_hooks";
import { openEmbedded, setDb, withUser, type Database } from "@/lib/db";
import { lexemeQuery } from "@/lib/db/fulltext";
import { KEYWORD_MATCH_CAP, termStats, vectorCandidates } from "@/lib/db/history-search";
import { appendMessage } from "@/lib/db/messages";
import { recentSessionSummaries } from "@/lib/db/session-picker";
import { insertSession } from "@/lib/db/sessions";
import { embedHistoryQuery, searchHistory } from "@/lib/search/history";
import { keywordCandidates, readPlan } from "@/lib/search/keywords";
import { rng, userText } from "./corpus";
import { fmtInt, fmtMs, table } from "./report";
import { HEAVY, openEngine, seedHistory, sentencePools, type Pools } from "./search-history";
import { intEnv, measure, summarize, type Stat } from "./stats";

const SEARCH_TARGET_MS = 50;
/** What searchHistory asks each arm for at limit 10 (MIN_CANDIDATES in lib/search/history.ts). */
const ARM_CANDIDATES = 50;
const ARM_RUNS = 9;
/** The ways messages_matching can read the history (forced through threadkeeper.keyword_strategy). */
const STRATEGIES = ["index", "walk", "bands"] as const;
type Strategy = (typeof STRATEGIES)[number];
/** Forced runs: a wrong way can take seconds at 1M. */
const STRATEGY_RUNS = 3;
const SEND_TARGET_MS = 2;

const PLANTED = "My sister Marguerite lands in Lisbon on the 14th at gate B22, pick her up.";
const QUERIES: { label: string; q: string }[] = [
  { label: "planted fact (names)", q: "Marguerite Lisbon" },
  { label: "natural question", q: "when does my sister land in Lisbon" },
  { label: "technical terms", q: "migration index timeout" },
  { label: "one common word", q: "error" },
  { label: "two common words", q: "error npx" },
  { label: "no match", q: "zyzzogeton" },
];

export interface SearchSizeResult {
  engine: "pglite" | "postgres";
  messages: number;
  otherMessages: number;
  seedS: number;
  hnswBuildS: number;
  plantedRank: number | null;
  /** arms: medians of the keyword and vector candidate queries alone (whole-history shapes only). */
  searches: { label: string; q: string; hits: number; stat: Stat; arms: { keywordMs: number; vectorMs: number } | null }[];
  /** messages_matching alone for each query's informative words (medians): as chosen, and forced each way. */
  matching: { q: string; words: string; chosenMs: number; forcedMs: Record<Strategy, number> }[];
  picker: { label: string; q: string; sessions: number; stat: Stat }[];
  explain: { picker: string; vector: string };
}

export interface SearchBenchResult {
  sizes: SearchSizeResult[];
  send: { withIndexing: Stat; without: Stat; addedMs: number };
}

function sizesEnv(): number[] {
  return (process.env.BENCH_SEARCH_SIZES ?? "100000,1000000").split(",").map((s) => Number(s.trim())).filter((n) => n > 0);
}

async function explain(db: Database, user: string, sql: string, params: unknown[]): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.query(
      "select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)",
      [JSON.stringify({ sub: user, role: "authenticated" }), user],
    );
    await tx.query("set local role authenticated");
    await tx.query("select set_config('hnsw.iterative_scan', 'relaxed_order', true)");
    const rows = await tx.query<{ "QUERY PLAN": string }>(`explain ${sql}`, params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

/** The plan's node names, briefly: which indexes it reads. */
function planNodes(plan: string): string {
  return [...plan.matchAll(/(Bitmap Index Scan|Index Scan|Index Only Scan|Seq Scan|Function Scan)[^\n(]*/g)].map((m) => m[0].trim()).join("; ");
}

async function benchSize(messages: number, otherMessages: number, runs: number, pools: Pools): Promise<SearchSizeResult> {
  console.log(`\nSearch: seeding ${fmtInt(messages)} messages of one user and ${fmtInt(otherMessages)} of another …`);
  const engine = await openEngine(messages);
  const db = engine.db;
  setDb(db);
  try {
    const { seedMs, hnswMs, session } = await seedHistory(engine, messages, otherMessages, pools);

    // A fact said once, late in one session: the search must find it first.
    const planted = await withUser(HEAVY, async (tx) => {
      const s = await insertSession(tx, HEAVY, { title: "Family", model: "claude-sonnet-4-5", settings: {}, systemPrompt: "", systemTokens: 0 });
      return appendMessage(tx, HEAVY, s.id, { role: "user", content: [], text: PLANTED, tokenCount: 20, status: "complete", startsTurn: true });
    });
    const { indexPendingMessages } = await import("@/lib/search/indexer");
    while ((await indexPendingMessages(db)) > 0);

    const searches: SearchSizeResult["searches"] = [];
    let plantedRank: number | null = null;
    for (const { label, q } of QUERIES) {
      const run = async () => {
        const qv = await embedHistoryQuery(q);
        return withUser(HEAVY, (tx) => searchHistory(tx, HEAVY, { q, limit: 10 }, qv));
      };
      const hits = await run();
      if (label.startsWith("planted")) plantedRank = hits.findIndex((h) => h.message_id === planted.id) + 1 || null;
      const { stat } = await measure(run, { warmups: 3, runs });
      // Where the time goes: each arm alone, with the candidate count searchHistory asks for.
      const qv = await embedHistoryQuery(q);
      const arms = {
        keywordMs: (await measure(() => withUser(HEAVY, (tx) => keywordCandidates(tx, HEAVY, {}, q, ARM_CANDIDATES)), { warmups: 1, runs: ARM_RUNS })).stat.medianMs,
        vectorMs: qv.vector
          ? (await measure(() => withUser(HEAVY, (tx) => vectorCandidates(tx, HEAVY, {}, { vector: qv.vector!, model: qv.model }, ARM_CANDIDATES)), { warmups: 1, runs: ARM_RUNS })).stat.medianMs
          : 0,
      };
      searches.push({ label, q, hits: hits.length, stat, arms });
    }
    const inSession = async () => withUser(HEAVY, (tx) => searchHistory(tx, HEAVY, { q: "migration index", sessionId: session, limit: 10 }));
    searches.push({ label: "within one 500-message session", q: "migration index", hits: (await inSession()).length, stat: (await measure(inSession, { warmups: 3, runs })).stat, arms: null });

    const picker: SearchSizeResult["picker"] = [];
    for (const { label, q } of [QUERIES[0], QUERIES[2], QUERIES[3]]) {
      const run = () => withUser(HEAVY, (tx) => recentSessionSummaries(tx, HEAVY, { q, limit: 20 }));
      const sessions = (await run()).length;
      picker.push({ label, q, sessions, stat: (await measure(run, { warmups: 3, runs })).stat });
    }

    const pickerPlan = await explain(db, HEAVY, `select h.session_id from messages_matching(plainto_tsquery('english', $1), $2) h`, ["Marguerite Lisbon", KEYWORD_MATCH_CAP]);
    // The keyword matches alone, as the function chooses to read them and forced each way: the
    // chosen way should be about the fastest for every kind of query.
    const matching: SearchSizeResult["matching"] = [];
    for (const { q } of QUERIES) {
      // The keyword arm's first read, as searchHistory plans it.
      const { first } = await withUser(HEAVY, async (tx) => readPlan((await termStats(tx, HEAVY, q)).terms, false));
      if (first.words.length === 0) continue;
      const words = first.words;
      const tsq = lexemeQuery(words.map((w) => w.lexeme));
      const timed = async (strategy: Strategy | "", runs: number) =>
        (
          await measure(
            () =>
              withUser(HEAVY, async (tx) => {
                await tx.query(`select set_config('threadkeeper.keyword_strategy', $1, true)`, [strategy]);
                return tx.query(`select id from messages_matching($1::tsquery, $2)`, [tsq, first.cap]);
              }),
            { warmups: 1, runs },
          )
        ).stat.medianMs;
      const forcedMs = {} as Record<Strategy, number>;
      for (const strategy of STRATEGIES) forcedMs[strategy] = await timed(strategy, STRATEGY_RUNS);
      matching.push({ q, words: `any of ${words.map((w) => `${w.lexeme} (${fmtInt(w.df)})`).join(", ")}, newest ${fmtInt(first.cap)}`, chosenMs: await timed("", ARM_RUNS), forcedMs });
    }
    const qv = await embedHistoryQuery("when does my sister land in Lisbon");
    const vectorPlan = await explain(
      db,
      HEAVY,
      `select e.message_id from message_embeddings e join messages m on m.id = e.message_id where e.user_id = $1 and e.model = $2
       and e.embedding is not null order by e.embedding <=> $3::halfvec limit 50`,
      [HEAVY, qv.model, qv.vector],
    );
    return {
      engine: engine.kind,
      messages,
      otherMessages,
      seedS: Math.round(seedMs / 100) / 10,
      hnswBuildS: Math.round(hnswMs / 100) / 10,
      plantedRank,
      searches,
      matching,
      picker,
      explain: { picker: planNodes(pickerPlan), vector: planNodes(vectorPlan) },
    };
  } finally {
    await engine.close();
  }
}

/** appendMessage with and without the enqueue trigger: what indexing adds to a send. */
async function benchSend(runs: number): Promise<SearchBenchResult["send"]> {
  const db = await openEmbedded("memory://");
  setDb(db);
  try {
    const r = rng(5);
    const texts = Array.from({ length: 64 }, () => userText(r));
    const s = await withUser(HEAVY, (tx) =>
      insertSession(tx, HEAVY, { title: "Send", model: "claude-sonnet-4-5", settings: {}, systemPrompt: "", systemTokens: 0 }),
    );
    let i = 0;
    const save = () =>
      withUser(HEAVY, (tx) =>
        appendMessage(tx, HEAVY, s.id, { role: "user", content: [], text: texts[i++ % texts.length], tokenCount: 50, status: "complete", startsTurn: true }),
      );
    const samples = { on: [] as number[], off: [] as number[] };
    // Interleaved, so drift in the machine's load falls on both alike.
    for (let k = 0; k < runs * 4 + 20; k++) {
      const on = k % 2 === 0;
      await db.transaction((tx) => tx.query(`alter table messages ${on ? "enable" : "disable"} trigger messages_enqueue_embedding`));
      const t = performance.now();
      await save();
      const ms = performance.now() - t;
      if (k >= 20) (on ? samples.on : samples.off).push(ms);
    }
    const withIndexing = summarize(samples.on);
    const without = summarize(samples.off);
    return { withIndexing, without, addedMs: Math.round((withIndexing.medianMs - without.medianMs) * 1000) / 1000 };
  } finally {
    await db.close();
  }
}

export async function benchSearch(restore: Database | undefined): Promise<SearchBenchResult> {
  const runs = intEnv("BENCH_SEARCH_RUNS", 30);
  const other = intEnv("BENCH_SEARCH_OTHER", 50_000);
  try {
    const pools = await sentencePools();
    const sizes: SearchSizeResult[] = [];
    for (const n of sizesEnv()) sizes.push(await benchSize(n, other, runs, pools));
    return { sizes, send: await benchSend(runs) };
  } finally {
    setDb(restore);
  }
}

export function printSearch(r: SearchBenchResult): void {
  for (const s of r.sizes) {
    console.log(
      `\nHistory search (${s.engine === "postgres" ? "PostgreSQL 15, as authenticated with RLS" : "PGlite"}): ${fmtInt(s.messages)} messages of one user beside ${fmtInt(s.otherMessages)} of another, all embedded ` +
        `(seed ${s.seedS} s, HNSW build ${s.hnswBuildS} s). Planted fact ranked ${s.plantedRank ?? "not found"}. Medians and p95 per query, limit 10.`,
    );
    console.log(
      table(
        ["query", "hits", "p50", "p95", `target (p95 < ${SEARCH_TARGET_MS} ms)`, "keyword / vector arm alone (p50)"],
        s.searches.map((q) => [
          `${q.label}: "${q.q}"`,
          String(q.hits),
          fmtMs(q.stat.medianMs),
          fmtMs(q.stat.p95Ms),
          q.stat.p95Ms < SEARCH_TARGET_MS ? "met" : "MISSED",
          q.arms ? `${fmtMs(q.arms.keywordMs)} / ${fmtMs(q.arms.vectorMs)}` : "—",
        ]),
      ),
    );
    console.log(
      table(
        ["keyword arm's first read alone, p50", "words read (messages holding each)", "as chosen", ...STRATEGIES.map((x) => `forced ${x}`)],
        s.matching.map((m) => [`"${m.q}"`, m.words, fmtMs(m.chosenMs), ...STRATEGIES.map((x) => fmtMs(m.forcedMs[x]))]),
      ),
    );
    console.log(
      table(
        ["picker keyword search", "sessions", "p50", "p95"],
        s.picker.map((q) => [`"${q.q}"`, String(q.sessions), fmtMs(q.stat.medianMs), fmtMs(q.stat.p95Ms)]),
      ),
    );
    console.log(`  plans: picker keywords ${s.explain.picker}; vector ${s.explain.vector}`);
  }
  const sd = r.send;
  console.log(
    `\nSaving a message (appendMessage, one transaction): ${fmtMs(sd.withIndexing.medianMs)} with the enqueue trigger, ` +
      `${fmtMs(sd.without.medianMs)} without: indexing adds ${sd.addedMs} ms (target < ${SEND_TARGET_MS} ms: ${sd.addedMs < SEND_TARGET_MS ? "met" : "MISSED"}).`,
  );
}

export function searchJson(r: SearchBenchResult) {
  return {
    sizes: r.sizes.map((s) => ({
      ...s,
      searches: s.searches.map((q) => ({
        label: q.label,
        q: q.q,
        hits: q.hits,
        p50_ms: q.stat.medianMs,
        p95_ms: q.stat.p95Ms,
        keyword_arm_p50_ms: q.arms?.keywordMs ?? null,
        vector_arm_p50_ms: q.arms?.vectorMs ?? null,
      })),
      matching: s.matching.map((m) => ({ q: m.q, words: m.words, chosen_p50_ms: m.chosenMs, forced_p50_ms: m.forcedMs })),
      picker: s.picker.map((q) => ({ label: q.label, q: q.q, sessions: q.sessions, p50_ms: q.stat.medianMs, p95_ms: q.stat.p95Ms })),
    })),
    send: { with_ms: r.send.withIndexing.medianMs, without_ms: r.send.without.medianMs, added_ms: r.send.addedMs },
  };
}
