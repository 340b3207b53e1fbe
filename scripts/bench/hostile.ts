// Hostile input (issue 29): every per-character algorithm a request runs, timed on text built
// to hurt it (one letter for 1 MB, no spaces, 100k newlines, repeated punctuation, shapes that
// make regexes backtrack), and the longest event-loop stall each one causes. Target: none over
// 100 ms. Scenarios are a list: HTTP ones (big bodies, long drop-in histories) append to it.
//
// Environment: BENCH_HOSTILE_BYTES (1000000), BENCH_HOSTILE_RUNS (5), BENCH_HOSTILE_ONLY
// (comma-separated scenario names or prefixes; default: all).
import { performance } from "node:perf_hooks";
import { checkpointTags } from "@/lib/context/checkpoint-triggers";
import { canonicalKey } from "@/lib/context/client-history";
import { digestSentences } from "@/lib/context/compaction/digest";
import { extractiveSummary } from "@/lib/context/compaction/extractive";
import { extractMustKeep } from "@/lib/context/compaction/must-keep";
import type { TranscriptTurn } from "@/lib/context/compaction/types";
import { verifySummary } from "@/lib/context/compaction/verify";
import { askedRange, dateMentions, resolveRelativeDates, saidAt } from "@/lib/context/dates";
import { extractFacts } from "@/lib/context/facts/extract";
import { highlightRuns, queryTerms, snippetOf } from "@/lib/context/snippet";
import { heuristicTitle } from "@/lib/context/titles";
import { blocksToText } from "@/lib/context/text";
import { redactSecrets } from "@/lib/redact";
import { countMessageOffThread } from "@/lib/tokens/off-thread";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import { fmtInt, fmtMs, round3, statJson, table } from "./report";
import { intEnv, summarize, type Stat } from "./stats";

/** The stall target of issue 29. */
export const STALL_TARGET_MS = 100;
const PROBE_MS = 5;

/**
 * Runs `fn` while a 5 ms interval watches the event loop; `stallMs` is the longest the
 * interval was late, so a synchronous `fn` stalls for its whole run and work moved to a
 * worker only for what is left on the main thread.
 */
export async function stallDuring<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - PROBE_MS);
    last = now;
  }, PROBE_MS);
  try {
    await new Promise((resolve) => setTimeout(resolve, PROBE_MS * 2));
    const t0 = performance.now();
    const value = await fn();
    const ms = performance.now() - t0;
    // One more tick, so a stall at the very end is seen.
    await new Promise((resolve) => setTimeout(resolve, PROBE_MS * 2));
    return { value, ms, stallMs };
  } finally {
    clearInterval(timer);
  }
}

/** A fixed pseudo-random generator, so every run builds the same inputs. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** The inputs, each `bytes` characters (ASCII, so bytes too). */
export function hostileInputs(bytes: number): { name: string; text: string }[] {
  const next = random(29);
  let dna = "";
  for (let i = 0; i < bytes; i++) dna += "ACGT"[Math.floor(next() * 4)];
  let code = "";
  for (let k = 0; code.length < bytes; k++) code += `function a${k}(b,c){return b.map(d=>d*c+1).filter(e=>e>0x1f&&e.n!=="x${k % 97}")}var q${k}=[1,2,3];`;
  return [
    { name: "one letter", text: "x".repeat(bytes) },
    { name: "DNA", text: dna },
    { name: "minified code", text: code.slice(0, bytes) },
    { name: "newlines", text: "\n".repeat(bytes) },
    { name: "spaces", text: " ".repeat(bytes) },
    { name: "punctuation", text: "!".repeat(bytes) },
    { name: "dots", text: ".".repeat(bytes) },
    { name: "digits", text: "7".repeat(bytes) },
    { name: "short lines", text: repeatTo("a\n", bytes) },
    { name: "capitalised words", text: repeatTo("Ann Bo ", bytes) },
    { name: "path-like", text: repeatTo("a/", bytes) },
    { name: "url-like", text: `https://${repeatTo("a.", bytes - 8)}` },
    { name: "key=value", text: repeatTo("a=", bytes) },
    { name: "backticks", text: repeatTo("`a", bytes) },
    { name: "backtick run", text: "`".repeat(bytes) },
    { name: "fence openers", text: repeatTo("a```\n", bytes) },
    { name: "fence, no close", text: `\`\`\`\n${repeatTo("Error ", bytes - 4)}` },
    { name: "dates", text: repeatTo("on 1 May 2023 ", bytes) },
    { name: "numbers", text: repeatTo("1 2 ", bytes) },
    { name: "secret-like", text: `sk-ant-${repeatTo("a", bytes - 7)}` },
    { name: "emails", text: repeatTo("a@", bytes) },
  ];
}

interface Algorithm {
  name: string;
  run: (text: string) => unknown;
}

const REF = new Date(2024, 4, 1);
const QUERY_CHARS = 500;
const SUMMARY_CHARS = 32_000;
const turnOf = (text: string): TranscriptTurn[] => [{ turnSeq: 1, messages: [{ role: "user", text, at: REF.toISOString() }] }];

/** What a request runs on text a user sent: sending, the drop-in, compaction, memory, search. */
export const ALGORITHMS: Algorithm[] = [
  { name: "tokenizer", run: (t) => estimateTextTokens(t) },
  { name: "redaction", run: (t) => redactSecrets(t) },
  { name: "blocks to text", run: (t) => blocksToText([{ type: "text", text: t }]) },
  { name: "drop-in key", run: (t) => canonicalKey("user", [{ type: "text", text: t }]) },
  { name: "checkpoint triggers", run: (t) => checkpointTags({ userText: t, replyText: t, previousTurnHadError: false, messagesSinceLast: 1, msSinceLast: 1 }) },
  { name: "title", run: (t) => heuristicTitle(t) },
  { name: "dates: said at", run: (t) => saidAt(t, REF) },
  { name: "dates: mentions", run: (t) => dateMentions(t, REF) },
  { name: "dates: relative", run: (t) => resolveRelativeDates(t, REF) },
  // A search query is at most 500 characters (historySearchQuery).
  { name: "dates: asked range", run: (t) => askedRange(t.slice(0, QUERY_CHARS), REF) },
  { name: "search: query terms", run: (t) => queryTerms(t.slice(0, QUERY_CHARS)) },
  { name: "search: snippet", run: (t) => snippetOf(t, ["needle", "x"]) },
  { name: "search: highlight", run: (t) => highlightRuns(t, ["needle", "x"]) },
  { name: "must-keep extraction", run: (t) => extractMustKeep(turnOf(t)) },
  { name: "facts", run: (t) => extractFacts(turnOf(t)) },
  { name: "digest", run: (t) => digestSentences(turnOf(t), estimateTextTokens) },
  // What is verified is a summary: at most SUMMARY_MAX_TOKENS (8,192), ~32 KB.
  {
    name: "verification",
    run: (t) => verifySummary(t.slice(0, SUMMARY_CHARS), [{ kind: "identifier", text: "needle" }], { detailsBudget: 500, countTokens: estimateTextTokens }),
  },
  {
    name: "extractive summary",
    run: (t) => extractiveSummary({ previousSummary: null, turns: turnOf(t), items: [], maxTokens: 2_000, countTokens: estimateTextTokens }),
  },
];

export interface HostileRow {
  algorithm: string;
  input: string;
  stat: Stat;
  /** Each run's longest stall: the median is what the target is judged on (another process on a shared machine can stall any one run), the max is shown beside it. */
  stall: Stat;
}

export interface HostileResult {
  bytes: number;
  runs: number;
  rows: HostileRow[];
  /** Counting a 1 MB message as the send path does: planned here, encoded on the worker. */
  offThread: { input: string; ms: number; stallMs: number }[];
}

function picked(name: string): boolean {
  const only = (process.env.BENCH_HOSTILE_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return only.length === 0 || only.some((o) => name.startsWith(o));
}

export async function benchHostile(): Promise<HostileResult> {
  const bytes = intEnv("BENCH_HOSTILE_BYTES", 1_000_000);
  const runs = Math.max(1, intEnv("BENCH_HOSTILE_RUNS", 5));
  const inputs = hostileInputs(bytes);
  estimateTextTokens("warm-up");
  const rows: HostileRow[] = [];
  for (const algorithm of ALGORITHMS.filter((a) => picked(a.name))) {
    for (const input of inputs) {
      const samples: number[] = [];
      const stalls: number[] = [];
      for (let r = 0; r < runs; r++) {
        const once = await stallDuring(() => algorithm.run(input.text));
        samples.push(once.ms);
        stalls.push(once.stallMs);
      }
      rows.push({ algorithm: algorithm.name, input: input.name, stat: summarize(samples), stall: summarize(stalls) });
    }
  }
  const offThread: HostileResult["offThread"] = [];
  if (picked("off-thread")) {
    for (const input of inputs) {
      const once = await stallDuring(() => countMessageOffThread("user", [{ type: "text", text: input.text }]));
      offThread.push({ input: input.name, ms: once.ms, stallMs: once.stallMs });
    }
  }
  return { bytes, runs, rows, offThread };
}

const met = (stallMs: number) => (stallMs <= STALL_TARGET_MS ? "yes" : "NO");

export function printHostile(r: HostileResult): void {
  console.log(
    `\nHostile input (issue 29): ${fmtInt(r.bytes)} characters each, ${r.runs} runs; per algorithm its worst input by event-loop stall (median of the runs; target ≤ ${STALL_TARGET_MS} ms).`,
  );
  // One line per algorithm: its worst input, so a regression stands out in a short table.
  const byAlgorithm = new Map<string, HostileRow[]>();
  for (const row of r.rows) byAlgorithm.set(row.algorithm, [...(byAlgorithm.get(row.algorithm) ?? []), row]);
  const rows = [...byAlgorithm].map(([name, list]) => {
    const worst = list.reduce((a, b) => (b.stall.medianMs > a.stall.medianMs ? b : a));
    const typical = summarize(list.map((l) => l.stat.medianMs));
    const longest = Math.max(...list.map((l) => l.stall.maxMs));
    return [name, fmtMs(typical.medianMs), worst.input, fmtMs(worst.stat.medianMs), fmtMs(worst.stat.p95Ms), fmtMs(worst.stall.medianMs), fmtMs(longest), met(worst.stall.medianMs)];
  });
  console.log(table(["algorithm", "median of inputs", "worst input", "its p50", "its p95", "its stall p50", "longest stall", "met"], rows));
  if (r.offThread.length > 0) {
    console.log("\nCounting one message of that size as sending does (planned on the event loop, encoded on the worker):");
    console.log(table(["input", "time", "longest stall", "met"], r.offThread.map((o) => [o.input, fmtMs(o.ms), fmtMs(o.stallMs), met(o.stallMs)])));
  }
}

export function hostileJson(r: HostileResult) {
  return {
    bytes: r.bytes,
    runs: r.runs,
    stall_target_ms: STALL_TARGET_MS,
    rows: r.rows.map((row) => ({
      algorithm: row.algorithm,
      input: row.input,
      ...statJson(row.stat),
      stall_median_ms: round3(row.stall.medianMs),
      stall_max_ms: round3(row.stall.maxMs),
    })),
    off_thread: r.offThread.map((o) => ({ input: o.input, ms: round3(o.ms), stall_ms: round3(o.stallMs) })),
    met: [...r.rows.map((row) => row.stall.medianMs), ...r.offThread.map((o) => o.stallMs)].every((ms) => ms <= STALL_TARGET_MS),
  };
}
