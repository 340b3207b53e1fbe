// Recall (issue 11): does a long, multi-session personal conversation keep its facts within
// reach? Generated users with several sessions of chatter and planted facts
// (./recall-corpus.ts), questions of three kinds (single fact, across sessions, temporal),
// measured through the product's own code (./recall-passes.ts):
//
//   a. after a forced compaction (the extractive summarizer: no API key), is the answer in the
//      request Claude would get (summary + window + loaded memories), against plain truncation
//      to the same tokens and against the full history; and the reduction achieved;
//   b. memory recall@1/5/10 of the evidence session's memory (archiveSession → searchMemories),
//      the answer in the top 5 memories' text, and the same for the sessions stored verbatim;
//   c. history-search recall@10 of the evidence turn, through lib/search/history.ts's
//      searchHistory when this build has it (the table says when it does not);
//   d. (a) again with "Claude" as the summarizer: the real SDK against the fake Anthropic server,
//      whose summary is scripted (see FAKE_SUMMARIZER), so this measures the LLM path's plumbing
//      and verification, not a real model's summary.
//
// Environment (defaults in brackets): BENCH_RECALL_COMPACT [target: compactSession asked for a 60 %
// smaller conversation; manual: /compact with force], BENCH_RECALL_USERS [4], BENCH_RECALL_SESSIONS [15 per user],
// BENCH_RECALL_TURNS [24 per session], BENCH_RECALL_FACTS [3 planted facts (questions) per session,
// plus one temporal pair per three sessions], BENCH_RECALL_SEED [4242], BENCH_RECALL_LLM [1; 0 skips d],
// BENCH_RECALL_HISTORY_MODULE [@/lib/search/history: another module with its contract, by path].
import { performance } from "node:perf_hooks";
import type { Database } from "@/lib/db";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { generateRecallCorpus, type QuestionKind, type RecallCorpus, type RecallCorpusOptions } from "./recall-corpus";
import { KINDS, onFreshDb, TARGET_REDUCTION, type CompactMode, searchPass, visibilityPass, type SearchResult, type VisibilityResult, type VisibilityRow, type RankRow } from "./recall-passes";
import { fmtInt, fmtMs, statJson, table } from "./report";
import { intEnv, summarize, withEnv } from "./stats";

/** Issue 11's targets (offline path). */
export const RECALL_TARGETS = { memoryTop5Pct: 85, historyTop10Pct: 90, visibleAfterCompactionPct: 65, minReductionPct: 60 } as const;

const FAKE_SUMMARIZER =
  "the fake server has no model: asked for a summary it answers \"Echo: \" + the first 200 characters of the summarizer's prompt " +
  "(its instructions, none of the conversation), so what survives is what the product's verification appends (the must-keep " +
  "items it finds) and the verbatim window; a real Claude summary would do better or worse, this is the LLM path's floor";

const MODE_TEXT: Record<CompactMode, string> = {
  target: `compactSession asked, as overflow recovery asks, for the fixed part plus ${100 - 100 * TARGET_REDUCTION} % of the conversation; BENCH_RECALL_COMPACT=manual for /compact with force`,
  manual: "/compact with force, which keeps up to a quarter of the turns verbatim; BENCH_RECALL_COMPACT=target for a 60 % target",
};

export interface RecallBenchResult {
  options: RecallCorpusOptions;
  mode: CompactMode;
  questions: Record<QuestionKind, number>;
  offline: VisibilityResult;
  llm: (VisibilityResult & { summarizerCalls: number }) | null;
  search: SearchResult;
  ms: number;
}

export function recallOptions(): RecallCorpusOptions {
  return {
    seed: intEnv("BENCH_RECALL_SEED", 4242),
    users: intEnv("BENCH_RECALL_USERS", 4),
    sessionsPerUser: intEnv("BENCH_RECALL_SESSIONS", 15),
    turnsPerSession: intEnv("BENCH_RECALL_TURNS", 24),
    factsPerSession: intEnv("BENCH_RECALL_FACTS", 3),
  };
}

function compactMode(): CompactMode {
  const raw = process.env.BENCH_RECALL_COMPACT ?? "target";
  if (raw !== "manual" && raw !== "target") throw new Error(`BENCH_RECALL_COMPACT must be "manual" or "target", got "${raw}"`);
  return raw;
}

/** Offline: no Anthropic key (extractive summaries) and the local embedder (no Voyage key). */
const OFFLINE = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined, VOYAGE_API_KEY: undefined } as const;

export async function benchRecall(restore: Database | undefined): Promise<RecallBenchResult> {
  const started = performance.now();
  const options = recallOptions();
  const corpus: RecallCorpus = generateRecallCorpus(options);
  const questions = { single: 0, cross: 0, temporal: 0 };
  for (const u of corpus.users) for (const q of u.questions) questions[q.kind]++;
  const sessions = options.users * options.sessionsPerUser;
  console.log(
    `\nRecall: ${options.users} users × ${options.sessionsPerUser} sessions × ${options.turnsPerSession} turns, ` +
      `${questions.single + questions.cross + questions.temporal} questions (seed ${options.seed})`,
  );

  const t0 = performance.now();
  const offline = await withEnv(OFFLINE, () => onFreshDb(restore, (db) => visibilityPass(db, corpus, 1, compactMode())));
  console.log(`  a. ${sessions} sessions written, compacted, archived (offline) in ${s1(performance.now() - t0)}`);

  const t1 = performance.now();
  const search = await withEnv(OFFLINE, () => onFreshDb(restore, (db) => searchPass(db, corpus, 3)));
  console.log(`  b/c. ${sessions} sessions archived and saved verbatim, ${fmtInt(search.rows.length)} questions searched in ${s1(performance.now() - t1)}`);

  let llm: RecallBenchResult["llm"] = null;
  if (intEnv("BENCH_RECALL_LLM", 1) !== 0) {
    const t2 = performance.now();
    const fake = await startFakeAnthropic();
    try {
      const env = { ...OFFLINE, ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: fake.url, THREADKEEPER_MAX_RETRIES: "0" };
      const result = await withEnv(env, () => onFreshDb(restore, (db) => visibilityPass(db, corpus, 5, compactMode())));
      llm = { ...result, summarizerCalls: fake.requests.filter((r) => r.path === "/v1/messages").length };
    } finally {
      await fake.close();
    }
    console.log(`  d. the same through the fake Anthropic server in ${s1(performance.now() - t2)}`);
  }
  return { options, mode: compactMode(), questions, offline, llm, search, ms: performance.now() - started };
}

// ------------------------------------------------------------------ printing

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pctOf = (hit: number, n: number) => (n === 0 ? Number.NaN : (100 * hit) / n);
const cell = (hit: number, n: number) => (n === 0 ? "-" : `${hit}/${n} (${pctOf(hit, n).toFixed(1)} %)`);
const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;
const medianOf = (xs: readonly number[]) => summarize(xs).medianMs;

interface Reduction {
  /** Of the conversation (messages → summary + window), which the target is judged on. */
  history: { median: number; min: number; max: number };
  /** As the product reports it (the whole request, loaded memories and system prompt included). */
  reported: number;
  text: string;
}

function reduction(v: VisibilityResult): Reduction {
  const h = summarize(v.compactions.map((c) => c.historyReductionPercent));
  const reported = medianOf(v.compactions.map((c) => c.reductionPercent));
  const methods = new Map<string, number>();
  for (const c of v.compactions) methods.set(c.method, (methods.get(c.method) ?? 0) + 1);
  const text =
    `${v.compactions.length} forced compactions (${[...methods].map(([m, n]) => `${n} ${m}`).join(", ")}): the conversation ` +
    `(${fmtInt(Math.round(medianOf(v.compactions.map((c) => c.historyTokens))))} → ${fmtInt(Math.round(medianOf(v.compactions.map((c) => c.historyTokensAfter))))} raw tokens, medians) ` +
    `reduced by ${h.medianMs.toFixed(1)} % median (min ${h.minMs.toFixed(1)}, max ${h.maxMs.toFixed(1)}); the whole request as the product reports it, ` +
    `loaded memories included, by ${reported.toFixed(1)} % median; must-keep retention median ` +
    `${(100 * medianOf(v.compactions.map((c) => c.retention))).toFixed(0)} %; compaction ${fmtMs(medianOf(v.compactions.map((c) => c.durationMs)))} median`;
  return { history: { median: h.medianMs, min: h.minMs, max: h.maxMs }, reported, text };
}

function visibilityTable(v: VisibilityResult): string {
  const t = RECALL_TARGETS;
  const red = reduction(v).history.median;
  const row = (label: string, rows: readonly VisibilityRow[], target: boolean) => {
    const compacted = pctOf(count(rows, (r) => r.compacted), rows.length);
    const met = compacted >= t.visibleAfterCompactionPct && red >= t.minReductionPct;
    return [
      label,
      cell(count(rows, (r) => r.full), rows.length),
      cell(count(rows, (r) => r.compacted), rows.length),
      cell(count(rows, (r) => r.truncated), rows.length),
      target ? `≥ ${t.visibleAfterCompactionPct} % at ≥ ${t.minReductionPct} % reduction` : "",
      target ? (met ? "yes" : "NO") : "",
    ];
  };
  return table(
    ["questions", "full history", "after compaction", "truncation (same tokens)", "target", "met"],
    [...KINDS.map((k) => row(`  ${k}`, v.rows.filter((r) => r.question.kind === k), false)), row("all", v.rows, true)],
  );
}

function rankCell(rows: readonly RankRow[], rank: (r: RankRow) => number | null | undefined, k: number): string {
  return cell(count(rows, (r) => { const x = rank(r); return x !== null && x !== undefined && x <= k; }), rows.length);
}

export function printRecall(r: RecallBenchResult): void {
  const t = RECALL_TARGETS;
  const o = r.options;
  console.log(
    `\nRecall benchmarks (issue 11): ${o.users} users, ${o.sessionsPerUser} sessions each of ${o.turnsPerSession} turns of chatter ` +
      `with ${o.factsPerSession} planted facts per session plus temporal pairs; questions: ${r.questions.single} single-fact, ` +
      `${r.questions.cross} across sessions, ${r.questions.temporal} temporal (the later of two statements); ${s1(r.ms)} in all.`,
  );

  console.log("\na. Answer visible in what Claude sees after a forced compaction (offline: extractive summarizer), per question:");
  console.log(visibilityTable(r.offline));
  console.log(`  ${reduction(r.offline).text}`);
  const cross = r.offline.rows.filter((x) => x.question.kind === "cross");
  console.log(
    `  (each session is written, compacted (${MODE_TEXT[r.mode]}), then archived; the asking session's request holds the memories loaded at its first` +
      ` message, so a cross-session answer is visible only through them: ${count(cross, (x) => x.viaMemory)} of ${cross.length} were, in all three views alike)`,
  );

  if (r.llm) {
    console.log('\nd. The same, with "Claude" as the summarizer: the real SDK against the fake Anthropic server:');
    console.log(visibilityTable(r.llm));
    console.log(`  ${reduction(r.llm).text}; ${r.llm.summarizerCalls} summarizer calls`);
    console.log(`  NOTE: ${FAKE_SUMMARIZER}.`);
  }

  const s = r.search;
  const rows = s.rows;
  console.log("\nb. Memory recall: each question asked of searchMemories; hit = a memory of the evidence session (or, with fact memories, one from it):");
  const memSearch = summarize(s.memorySearchMs);
  console.log(
    table(
      ["memories", "session @1", "session @5", "session @10", "answer in top 5", "target (session @5)", "met"],
      [
        [
          "archived (archiveSession, one per session)",
          rankCell(rows, (x) => x.archivedRank, 1),
          rankCell(rows, (x) => x.archivedRank, 5),
          rankCell(rows, (x) => x.archivedRank, 10),
          cell(count(rows, (x) => x.archivedAnswerTop5), rows.length),
          `≥ ${t.memoryTop5Pct} %`,
          pctOf(count(rows, (x) => x.archivedRank !== null && x.archivedRank <= 5), rows.length) >= t.memoryTop5Pct ? "yes" : "NO",
        ],
        ...KINDS.map((k) => {
          const kr = rows.filter((x) => x.question.kind === k);
          return [`  ${k}`, rankCell(kr, (x) => x.archivedRank, 1), rankCell(kr, (x) => x.archivedRank, 5), rankCell(kr, (x) => x.archivedRank, 10), cell(count(kr, (x) => x.archivedAnswerTop5), kr.length), "", ""];
        }),
        [
          "verbatim (the transcript saved as a memory)",
          rankCell(rows, (x) => x.verbatimRank, 1),
          rankCell(rows, (x) => x.verbatimRank, 5),
          rankCell(rows, (x) => x.verbatimRank, 10),
          cell(count(rows, (x) => x.verbatimAnswerTop5), rows.length),
          "",
          "",
        ],
      ],
    ),
  );
  const sources = new Map<string, number>();
  for (const x of rows) for (const src of x.archivedSources) sources.set(src, (sources.get(src) ?? 0) + 1);
  console.log(
    `  searchMemories ${fmtMs(memSearch.medianMs)} p50 / ${fmtMs(memSearch.p95Ms)} p95 over ${memSearch.runs} queries (${o.sessionsPerUser} memories per user); ` +
      `evidence-session hits in the top 10 by source: ${[...sources].map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`,
  );

  console.log("\nc. History search: the question asked of searchHistory; hit = the evidence turn in the top 10:");
  if (!s.history.available) {
    console.log(table(["history search", "evidence turn @10", "exact message @10", "p50", "p95", "target", "met"], [["searchHistory", s.history.reason, "-", "-", "-", `≥ ${t.historyTop10Pct} %`, "-"]]));
  } else {
    const h = summarize(s.historySearchMs);
    const turnPct = pctOf(count(rows, (x) => x.historyTurnRank != null), rows.length);
    console.log(
      table(
        ["history search", "evidence turn @10", "exact message @10", "p50", "p95", "target", "met"],
        [
          [
            "searchHistory",
            rankCell(rows, (x) => x.historyTurnRank, 10),
            rankCell(rows, (x) => x.historyMessageRank, 10),
            fmtMs(h.medianMs),
            fmtMs(h.p95Ms),
            `≥ ${t.historyTop10Pct} %`,
            turnPct >= t.historyTop10Pct ? "yes" : "NO",
          ],
          ...KINDS.map((k) => {
            const kr = rows.filter((x) => x.question.kind === k);
            return [`  ${k}`, rankCell(kr, (x) => x.historyTurnRank, 10), rankCell(kr, (x) => x.historyMessageRank, 10), "", "", "", ""];
          }),
        ],
      ),
    );
    console.log(`  (over ${fmtInt(o.users * o.sessionsPerUser * o.turnsPerSession * 2)} messages of ${o.users} users; latency at 100K / 1M messages is not measured here)`);
  }
}

// ------------------------------------------------------------------ JSON

const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

function visibilityJson(v: VisibilityResult) {
  const red = reduction(v);
  const byKind = (rows: readonly VisibilityRow[]) => ({
    questions: rows.length,
    full_pct: r1(pctOf(count(rows, (x) => x.full), rows.length)),
    compacted_pct: r1(pctOf(count(rows, (x) => x.compacted), rows.length)),
    truncated_pct: r1(pctOf(count(rows, (x) => x.truncated), rows.length)),
  });
  return {
    ...byKind(v.rows),
    kinds: Object.fromEntries(KINDS.map((k) => [k, byKind(v.rows.filter((x) => x.question.kind === k))])),
    history_reduction_median_pct: r1(red.history.median),
    history_reduction_min_pct: r1(red.history.min),
    history_reduction_max_pct: r1(red.history.max),
    reported_reduction_median_pct: r1(red.reported),
    methods: Object.fromEntries([...new Set(v.compactions.map((c) => c.method))].map((m) => [m, count(v.compactions, (c) => c.method === m)])),
    compaction_median_ms: r1(medianOf(v.compactions.map((c) => c.durationMs))),
    seconds: r1(v.ms / 1000),
  };
}

export function recallJson(r: RecallBenchResult) {
  const rows = r.search.rows;
  const at = (rank: (x: RankRow) => number | null | undefined, k: number) => r1(pctOf(count(rows, (x) => { const v = rank(x); return v != null && v <= k; }), rows.length));
  return {
    options: r.options,
    compaction_mode: r.mode,
    questions: r.questions,
    targets: RECALL_TARGETS,
    compaction_offline: visibilityJson(r.offline),
    compaction_llm_fake: r.llm ? { ...visibilityJson(r.llm), summarizer_calls: r.llm.summarizerCalls, summarizer: "fake server echo (scripted)" } : null,
    memory: {
      archived: { at1_pct: at((x) => x.archivedRank, 1), at5_pct: at((x) => x.archivedRank, 5), at10_pct: at((x) => x.archivedRank, 10), answer_top5_pct: r1(pctOf(count(rows, (x) => x.archivedAnswerTop5), rows.length)) },
      verbatim: { at1_pct: at((x) => x.verbatimRank, 1), at5_pct: at((x) => x.verbatimRank, 5), at10_pct: at((x) => x.verbatimRank, 10), answer_top5_pct: r1(pctOf(count(rows, (x) => x.verbatimAnswerTop5), rows.length)) },
      search: statJson(summarize(r.search.memorySearchMs)),
    },
    history: r.search.history.available
      ? { available: true, turn_at10_pct: at((x) => x.historyTurnRank, 10), message_at10_pct: at((x) => x.historyMessageRank, 10), search: statJson(summarize(r.search.historySearchMs)) }
      : { available: false, reason: r.search.history.reason },
    total_s: r1(r.ms / 1000),
  };
}
