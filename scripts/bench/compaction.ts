// Compaction quality and overhead on seeded development sessions, through the extractive
// path (the LLM path needs the API): plan → extract must-keep items → extractive summary →
// verify. Items are PLANTED in the sessions, so recall is measured against what we know is
// there, not only against what the extractor happened to find.
import {
  compactionBudgets,
  detailsBudget,
  extractiveSummary,
  extractMustKeep,
  haystack,
  isPresent,
  MUST_KEEP_KINDS,
  planCompaction,
  toTranscriptTurns,
  verifySummary,
  type CompactionPlan,
  type MustKeepItem,
  type MustKeepKind,
  type VerifiedSummary,
} from "@/lib/context/compaction";
import { groupTurns, nextTurnSeq, type Turn } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage, Role } from "@/lib/context/types";
import { estimateMessageTokens, estimateTextTokens } from "@/lib/tokens/tokenizer";
import { assistantText, int, pick, rng, userText } from "./corpus";
import { fmtMs, table } from "./report";
import { measure, median, summarize, type MeasureOptions, type Stat } from "./stats";

/** PRD FR-001 / FR-006 and docs/architecture.md "Performance targets". */
const COMPACTION_TARGETS = {
  reductionMin: 60,
  reductionMax: 75,
  retentionAbove: 90,
  overheadMs: 100,
} as const;

const SESSIONS = 20;
const SEED = 0xc0ffee;
/** As in settings: compaction triggers at 80 % and aims at 40 % of capacity. */
const THRESHOLD = 0.8;
const TARGET = 0.4;
/** Claude 4.5-family starting factor (calibration.ts). */
const CALIBRATION = 1.1;
/** System prompt, tools and memories: outside the history, but inside the target. */
const FIXED_TOKENS = 2_000;
/** The squeezed variant: a summary at the 512-token floor and a small details allowance. */
const SQUEEZE = { summaryMaxTokens: 512, detailsBudget: 300 } as const;
/** One long session, to show how the overhead grows with what is condensed. */
const LARGE_SESSION_TURNS = 1_000;

// ------------------------------------------------------------------ corpus

interface Planted {
  kind: MustKeepKind;
  text: string;
  turnSeq: number;
}

interface Session {
  messages: EngineMessage[];
  planted: Planted[];
}

const TECH = ["pgvector", "Redis Streams", "BullMQ", "Drizzle ORM", "server actions", "SWR", "Zod schemas", "a materialized view", "HNSW indexes", "row-level security", "Playwright", "tRPC", "SSE", "a Postgres advisory lock"];
const PURPOSE = ["the job queue", "session caching", "memory search", "input validation", "the audit log", "rate limiting", "billing webhooks", "the settings page", "the export worker", "search ranking"];
const ALT = ["a cron table", "Memcached", "plain fetch calls", "hand-written SQL", "polling", "a separate microservice", "Elasticsearch", "JWT cookies", "WebSockets", "a Kafka topic"];
const AREAS = ["auth", "billing", "jobs", "memory", "api", "ui/components", "db/migrations", "workers", "lib/cache", "server/routes"];
const NAMES = ["rateLimiter", "sessionStore", "webhookHandler", "retryPolicy", "embeddingClient", "auditWriter", "exportQueue", "searchIndex", "settingsForm", "tokenBucket"];
const EXTS = ["ts", "ts", "tsx", "sql", "py"];
const TABLES = ["invoices", "audit_events", "memories", "sessions", "webhooks", "exports", "api_keys"];
const TASKS = ["add an index on {t}(user_id, created_at)", "backfill {t} for legacy accounts", "write a migration that drops {t}.legacy_state", "rotate the signing secret used by {t}", "add a regression test for empty {t}", "document the retention policy for {t}"];
const PROPS = ["id", "turnSeq", "userId", "content", "length", "status", "token"];
const ENV_KEYS = ["QUEUE_CONCURRENCY", "CACHE_TTL_SECONDS", "EMBEDDING_BATCH_SIZE", "MAX_UPLOAD_MB", "WEBHOOK_RETRY_LIMIT", "SEARCH_TOP_K", "EXPORT_CHUNK_ROWS"];
const SETTING_KEYS = ["max_pool_size", "statement_timeout_ms", "idle_timeout_s", "retry_backoff_ms", "batch_size"];
const REPOS = ["threadkeeper", "billing-service", "infra", "web-app", "worker-pool"];
const FILLER = ["Thanks, that worked.", "Let me try that and get back to you.", "Makes sense, go ahead.", "Ok, running it now.", "Good catch, I missed that."];

/**
 * One session: turn 1 states the task (protected), then a mix of corpus chatter, tool calls
 * and filler, with must-keep items planted in the first 70 % of turns (the part a compaction
 * condenses). One middle turn is protected, as a user would pin an important message.
 */
function generateSession(index: number, turnCount?: number): Session {
  const r = rng(SEED + index * 7919);
  const turns = turnCount ?? int(r, 60, 120);
  const plantUntil = Math.floor(turns * 0.7);
  const pinnedTurn = int(r, 10, plantUntil);
  const planted: Planted[] = [];
  const seen = new Set<string>();
  // Unique per session, so dedup never merges two planted items.
  const unique = (make: () => string): string => {
    for (let i = 0; i < 50; i++) {
      const s = make();
      if (!seen.has(s)) {
        seen.add(s);
        return s;
      }
    }
    throw new Error("corpus: could not make a unique planted item");
  };
  // extra[t] = planted text to weave into turn t's user/assistant messages.
  const extra = new Map<number, { user: string[]; assistant: string[] }>();
  const plant = (kind: MustKeepKind, text: string, where: "user" | "assistant", rendered = text) => {
    const turnSeq = int(r, 2, plantUntil);
    const slot = extra.get(turnSeq) ?? { user: [], assistant: [] };
    slot[where].push(rendered);
    extra.set(turnSeq, slot);
    planted.push({ kind, text, turnSeq });
  };

  for (let i = 0; i < int(r, 4, 6); i++) {
    const d = unique(() => {
      const [tech, purpose, alt] = [pick(r, TECH), pick(r, PURPOSE), pick(r, ALT)];
      return pick(r, [
        `We decided to use ${tech} for ${purpose} instead of ${alt}.`,
        `Let's go with ${tech} for ${purpose}; ${alt} was rejected because it adds another moving part.`,
        `After the benchmark we agreed on ${tech} for ${purpose}.`,
      ]);
    });
    plant("decision", d, "assistant");
  }
  for (let i = 0; i < int(r, 3, 5); i++) {
    const e = unique(() =>
      pick(r, [
        `TypeError: Cannot read properties of undefined (reading '${pick(r, PROPS)}')`,
        `Error: connect ECONNREFUSED 127.0.0.1:${int(r, 3000, 9999)}`,
        `PrismaClientKnownRequestError: Unique constraint failed on the fields: (\`${pick(r, TABLES)}_id\`)`,
        `ERR_MODULE_NOT_FOUND: Cannot find module '/app/dist/${pick(r, NAMES)}.js'`,
      ]),
    );
    const fn = pick(r, NAMES);
    plant("error", e, "user", `It blows up with this:\n\`\`\`\n${e}\n    at ${fn} (src/${pick(r, AREAS)}/${fn}.ts:${int(r, 10, 400)}:${int(r, 2, 40)})\n\`\`\``);
  }
  for (let i = 0; i < int(r, 3, 5); i++) {
    const task = unique(() => pick(r, TASKS).replace("{t}", pick(r, TABLES)));
    const form = int(r, 0, 2);
    if (form === 0) plant("pending_task", `TODO: ${task}`, "assistant");
    else if (form === 1) plant("pending_task", task, "assistant", `Checklist:\n- [x] ship the fix\n- [ ] ${task}`);
    else plant("pending_task", `The next step is to ${task}.`, "assistant");
  }
  for (let i = 0; i < int(r, 4, 6); i++) {
    const path = unique(() => `src/${pick(r, AREAS)}/${pick(r, NAMES)}.${pick(r, EXTS)}`);
    plant("file_path", path, pick(r, ["user", "assistant"] as const), `I updated ${path} to match.`);
  }
  for (let i = 0; i < int(r, 3, 5); i++) {
    if (r() < 0.6) {
      const env = unique(() => `${pick(r, ENV_KEYS)}=${int(r, 2, 500)}`);
      plant("config", env, "assistant", `Set \`${env}\` in the worker's environment.`);
    } else {
      const setting = unique(() => `${pick(r, SETTING_KEYS)}: ${int(r, 5, 5000)}`);
      plant("config", setting, "assistant", `Config for the pool:\n\`\`\`yaml\ndatabase:\n  ${setting}\n\`\`\``);
    }
  }
  for (let i = 0; i < int(r, 2, 4); i++) {
    const url = unique(() =>
      r() < 0.5 ? `https://github.com/acme/${pick(r, REPOS)}/pull/${int(r, 10, 4000)}` : `https://docs.acme.dev/${pick(r, AREAS).replace("/", "-")}#${pick(r, NAMES)}`,
    );
    plant("url", url, pick(r, ["user", "assistant"] as const), `Context is in ${url} if you need it.`);
  }
  for (let i = 0; i < int(r, 2, 4); i++) {
    const fn = unique(() => `${pick(r, ["compute", "load", "flush", "score", "merge"])}${pick(r, ["Batch", "Window", "Quota", "Digest", "Ledger"])}${int(r, 1, 99)}`);
    const block = `\`\`\`ts\nexport function ${fn}(items: readonly number[], limit = ${int(r, 2, 64)}): number {\n  return items.slice(0, limit).reduce((a, b) => a + b, 0);\n}\n\`\`\``;
    plant("code_block", block, "assistant", `Here is the helper:\n\n${block}`);
  }

  for (let i = 0; i < int(r, 2, 4); i++) {
    const name = unique(() => `${pick(r, ["use", "get", "build", "parse", "sync"])}${pick(r, ["Session", "Invoice", "Memory", "Webhook", "Quota"])}${pick(r, ["Store", "State", "Key", "Cursor", "Plan"])}`);
    plant("identifier", name, pick(r, ["user", "assistant"] as const), `The bug is somewhere around \`${name}\`, it is called twice.`);
  }

  const specs: { role: Role; content: ContentBlock[]; protected?: boolean }[] = [];
  const text = (t: string): ContentBlock[] => [{ type: "text", text: t }];
  specs.push({ role: "user", content: text(`New task: ${userText(r)} Keep the public API stable.`) });
  specs.push({ role: "assistant", content: text(assistantText(r)) });
  for (let t = 2; t <= turns; t++) {
    const slot = extra.get(t) ?? { user: [], assistant: [] };
    const filler = r() < 0.25;
    const u = [filler ? pick(r, FILLER) : userText(r), ...slot.user].join("\n\n");
    specs.push({ role: "user", content: text(u), protected: t === pinnedTurn });
    if (r() < 0.2) {
      // A tool loop: the call, its result, then the answer — all one turn.
      const id = `toolu_${index}_${t}`;
      const path = `src/${pick(r, AREAS)}/${pick(r, NAMES)}.ts`;
      specs.push({ role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path } }] });
      specs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: assistantText(r) }] });
    }
    const a = [filler ? pick(r, FILLER) : assistantText(r), ...slot.assistant].join("\n\n");
    specs.push({ role: "assistant", content: text(a) });
  }

  let prev: number | null = null;
  const messages = specs.map((s, i): EngineMessage => {
    const turnSeq = nextTurnSeq(prev, s.role, s.content);
    prev = turnSeq;
    return {
      seq: i + 1,
      turnSeq,
      role: s.role,
      content: s.content,
      tokenCount: estimateMessageTokens(s.role, s.content),
      protected: s.protected ?? false,
      status: "complete",
    };
  });
  return { messages, planted };
}

// ------------------------------------------------------------------ one compaction

interface Run {
  plan: CompactionPlan;
  items: MustKeepItem[];
  summary: string;
  verified: VerifiedSummary;
  summaryMaxTokens: number;
  detailsBudget: number;
}

/** The budgets the app would use for a session sitting exactly at the threshold. */
function budgetsAtThreshold(turns: readonly Turn[]) {
  const raw = FIXED_TOKENS + turns.reduce((n, t) => n + t.tokens, 0);
  const capacity = Math.round((raw * CALIBRATION) / THRESHOLD);
  return compactionBudgets({ capacity, threshold: THRESHOLD, target: TARGET, fixedTokens: FIXED_TOKENS, pinnedTokens: 0, calibration: CALIBRATION });
}

/** Everything compact.ts does around the summarizer call, extractive summary in its place. */
function compact(
  turns: readonly Turn[],
  previousSummary: string | null,
  squeeze?: typeof SQUEEZE,
  withSummary?: string,
): Run {
  const budgets = budgetsAtThreshold(turns);
  const plan = planCompaction({ turns, keepBudget: budgets.keepBudget });
  if (!plan) throw new Error("bench: nothing to compact");
  const transcript = toTranscriptTurns(plan.condense);
  const items = extractMustKeep(transcript, previousSummary);
  const summaryMaxTokens = squeeze?.summaryMaxTokens ?? budgets.summaryMaxTokens;
  const summary =
    withSummary ??
    extractiveSummary({ previousSummary, turns: transcript, items, maxTokens: summaryMaxTokens, countTokens: estimateTextTokens });
  const replaced = plan.condensedTokens + (previousSummary ? estimateTextTokens(previousSummary) : 0);
  const budget = squeeze?.detailsBudget ?? detailsBudget(replaced, estimateTextTokens(summary));
  const verified = verifySummary(summary, items, { detailsBudget: budget, countTokens: estimateTextTokens });
  return { plan, items, summary, verified, summaryMaxTokens, detailsBudget: budget };
}

// ------------------------------------------------------------------ measuring

type KindCounts = Record<MustKeepKind, { total: number; hit: number }>;
const kindCounts = (): KindCounts =>
  Object.fromEntries(MUST_KEEP_KINDS.map((k) => [k, { total: 0, hit: 0 }])) as KindCounts;

interface SessionResult {
  turns: number;
  condensedTurns: number;
  condensedTokens: number;
  summaryTokens: number;
  reductionPct: number;
  retentionPct: number;
  plantedCondensed: number;
  plantedExtractedPct: number;
  plantedRecallPct: number;
  itemsTotal: number;
  itemsFit: boolean;
  allRetained: boolean;
  squeezedRetentionPct: number;
  incrementalRecallPct: number;
}

export interface CompactionBenchResult {
  sessions: SessionResult[];
  plantedByKind: KindCounts;
  extractedByKind: KindCounts;
  squeezedByKind: KindCounts;
  overhead: { full: Stat; engine: Stat };
  large: { turns: number; condensedTokens: number; fullMs: number; engineMs: number; retentionPct: number };
  ms: number;
}

const pct = (a: number, b: number) => (b === 0 ? 100 : (a / b) * 100);

/** Tokens the items would take as summary lines: whether they can all fit at once. */
function itemsTokens(items: readonly MustKeepItem[]): number {
  return items.reduce((n, it) => n + estimateTextTokens(it.kind === "code_block" ? `${it.text}\n` : `- ${it.text}\n`), 0);
}

export async function benchCompaction(opts: MeasureOptions = { warmups: 1, runs: 5 }): Promise<CompactionBenchResult> {
  const started = performance.now();
  const sessions: SessionResult[] = [];
  const plantedByKind = kindCounts();
  const extractedByKind = kindCounts();
  const squeezedByKind = kindCounts();
  const fullMs: number[] = [];
  const engineMs: number[] = [];

  for (let s = 0; s < SESSIONS; s++) {
    const { messages, planted } = generateSession(s);
    const turns = groupTurns(messages);
    const run = compact(turns, null);
    const condensedSeqs = new Set(run.plan.condense.map((t) => t.turnSeq));
    const inScope = planted.filter((p) => condensedSeqs.has(p.turnSeq));
    const final = haystack(run.verified.text);
    const extracted = new Set(run.items.map((i) => `${i.kind}\u0000${i.text}`));
    let found = 0;
    let recalled = 0;
    for (const p of inScope) {
      const hitExtract = extracted.has(`${p.kind}\u0000${p.text}`);
      const hitFinal = isPresent(p, final);
      found += hitExtract ? 1 : 0;
      recalled += hitFinal ? 1 : 0;
      extractedByKind[p.kind].total++;
      extractedByKind[p.kind].hit += hitExtract ? 1 : 0;
      plantedByKind[p.kind].total++;
      plantedByKind[p.kind].hit += hitFinal ? 1 : 0;
    }

    const squeezed = compact(turns, null, SQUEEZE);
    const sq = haystack(squeezed.verified.text);
    for (const it of squeezed.items) {
      squeezedByKind[it.kind].total++;
      squeezedByKind[it.kind].hit += isPresent(it, sq) ? 1 : 0;
    }

    // Incremental: compact the first half of the session as it stood then, then the whole
    // session on top of that summary; planted items from both rounds must be in the second.
    const half = turns.slice(0, Math.floor(turns.length / 2));
    const first = compact(half, null);
    const rest = turns.filter((t) => t.turnSeq > first.plan.throughTurn);
    const second = compact(rest, first.verified.text);
    const covered = new Set([...first.plan.condense, ...second.plan.condense].map((t) => t.turnSeq));
    const both = planted.filter((p) => covered.has(p.turnSeq));
    const secondFinal = haystack(second.verified.text);
    const incremental = both.filter((p) => isPresent(p, secondFinal)).length;

    const summaryTokens = estimateTextTokens(run.verified.text);
    const fits = itemsTokens(run.items) <= run.summaryMaxTokens + run.detailsBudget;
    sessions.push({
      turns: turns.length,
      condensedTurns: run.plan.condense.length,
      condensedTokens: run.plan.condensedTokens,
      summaryTokens,
      reductionPct: (1 - summaryTokens / run.plan.condensedTokens) * 100,
      retentionPct: run.verified.retentionRate * 100,
      plantedCondensed: inScope.length,
      plantedExtractedPct: pct(found, inScope.length),
      plantedRecallPct: pct(recalled, inScope.length),
      itemsTotal: run.items.length,
      itemsFit: fits,
      allRetained: run.verified.omitted.length === 0,
      squeezedRetentionPct: squeezed.verified.retentionRate * 100,
      incrementalRecallPct: pct(incremental, both.length),
    });

    // Overhead without the LLM: the full extractive path, and the path around an LLM call
    // (plan + transcript + extract + verify of an existing summary).
    fullMs.push((await measure(() => compact(turns, null), opts)).stat.medianMs);
    engineMs.push((await measure(() => compact(turns, null, undefined, run.summary), opts)).stat.medianMs);
  }

  const big = groupTurns(generateSession(SESSIONS, LARGE_SESSION_TURNS).messages);
  const bigRun = compact(big, null);
  const large = {
    turns: big.length,
    condensedTokens: bigRun.plan.condensedTokens,
    fullMs: (await measure(() => compact(big, null), { warmups: 1, runs: 3 })).stat.medianMs,
    engineMs: (await measure(() => compact(big, null, undefined, bigRun.summary), { warmups: 1, runs: 3 })).stat.medianMs,
    retentionPct: bigRun.verified.retentionRate * 100,
  };

  return {
    sessions,
    large,
    plantedByKind,
    extractedByKind,
    squeezedByKind,
    overhead: { full: summarize(fullMs), engine: summarize(engineMs) },
    ms: performance.now() - started,
  };
}

// ------------------------------------------------------------------ reporting

const med = (xs: number[]) => median([...xs].sort((a, b) => a - b));
const min = (xs: number[]) => Math.min(...xs);
const p1 = (x: number) => `${x.toFixed(1)} %`;

export function printCompaction(r: CompactionBenchResult): void {
  const s = r.sessions;
  const col = (f: (x: SessionResult) => number) => s.map(f);
  const reduction = col((x) => x.reductionPct);
  const retention = col((x) => x.retentionPct);
  const recall = col((x) => x.plantedRecallPct);
  const fit = s.filter((x) => x.itemsFit);
  const fitKept = fit.filter((x) => x.allRetained).length;
  const t = COMPACTION_TARGETS;
  const redMed = med(reduction);
  const reductionVerdict = redMed < t.reductionMin ? "NO (below)" : redMed > t.reductionMax ? "above range" : "yes";

  console.log(
    `\nCompaction benchmarks: extractive path (no LLM), ${s.length} seeded dev sessions of ${min(col((x) => x.turns))}–${Math.max(...col((x) => x.turns))} turns, ` +
      `each at the ${THRESHOLD * 100} % threshold, compacted toward ${TARGET * 100} % (${fmtMs(r.ms)} in all)`,
  );
  console.log(
    table(
      ["metric", "median", "min", "target", "met"],
      [
        ["condensed turns / tokens", `${med(col((x) => x.condensedTurns))} / ${Math.round(med(col((x) => x.condensedTokens)))}`, `${min(col((x) => x.condensedTurns))} / ${min(col((x) => x.condensedTokens))}`, "", ""],
        ["summary tokens (incl. details)", `${Math.round(med(col((x) => x.summaryTokens)))}`, `${min(col((x) => x.summaryTokens))}`, "", ""],
        ["token reduction", p1(redMed), p1(min(reduction)), `${t.reductionMin}–${t.reductionMax} %`, reductionVerdict],
        ["retention of extracted items", p1(med(retention)), p1(min(retention)), `> ${t.retentionAbove} %`, med(retention) > t.retentionAbove ? "yes" : "NO"],
        ["planted items extracted", p1(med(col((x) => x.plantedExtractedPct))), p1(min(col((x) => x.plantedExtractedPct))), "", ""],
        ["planted recall (verbatim in summary)", p1(med(recall)), p1(min(recall)), `> ${t.retentionAbove} %`, med(recall) > t.retentionAbove ? "yes" : "NO"],
        ["planted recall after 2 incremental rounds", p1(med(col((x) => x.incrementalRecallPct))), p1(min(col((x) => x.incrementalRecallPct))), "", ""],
        ["items per compaction", `${med(col((x) => x.itemsTotal))}`, `${min(col((x) => x.itemsTotal))}`, "", ""],
        ["all items kept when they fit", `${fitKept}/${fit.length} sessions`, "", "all", fitKept === fit.length ? "yes" : "NO"],
        [`squeezed retention (${SQUEEZE.summaryMaxTokens}-token summary, ${SQUEEZE.detailsBudget}-token details)`, p1(med(col((x) => x.squeezedRetentionPct))), p1(min(col((x) => x.squeezedRetentionPct))), "ranked", ""],
      ],
    ),
  );

  console.log("\nBy kind: planted items (condensed turns only) and, squeezed, every extracted item:");
  console.log(
    table(
      ["kind", "planted", "extracted", "recall", "squeezed items", "squeezed survival"],
      MUST_KEEP_KINDS.map((k) => [
        k,
        `${r.plantedByKind[k].total}`,
        r.extractedByKind[k].total ? p1(pct(r.extractedByKind[k].hit, r.extractedByKind[k].total)) : "-",
        r.plantedByKind[k].total ? p1(pct(r.plantedByKind[k].hit, r.plantedByKind[k].total)) : "-",
        `${r.squeezedByKind[k].total}`,
        r.squeezedByKind[k].total ? p1(pct(r.squeezedByKind[k].hit, r.squeezedByKind[k].total)) : "-",
      ]),
    ),
  );

  console.log("\nCompaction overhead without the LLM call (median of per-session medians):");
  console.log(
    table(
      ["path", "p50", "p95", "max", "target (p50)", "met"],
      [
        ["plan + extract + extractive + verify", fmtMs(r.overhead.full.medianMs), fmtMs(r.overhead.full.p95Ms), fmtMs(r.overhead.full.maxMs), `< ${t.overheadMs} ms`, r.overhead.full.medianMs < t.overheadMs ? "yes" : "NO"],
        ["plan + extract + verify (LLM path)", fmtMs(r.overhead.engine.medianMs), fmtMs(r.overhead.engine.p95Ms), fmtMs(r.overhead.engine.maxMs), `< ${t.overheadMs} ms`, r.overhead.engine.medianMs < t.overheadMs ? "yes" : "NO"],
      ],
    ),
  );
  const L = r.large;
  console.log(
    `  one ${L.turns}-turn session condensing ${L.condensedTokens.toLocaleString("en-US")} tokens: ` +
      `${fmtMs(L.fullMs)} extractive path, ${fmtMs(L.engineMs)} LLM path (retention ${p1(L.retentionPct)})` +
      (L.fullMs < t.overheadMs ? "" : ` — over the ${t.overheadMs} ms target at this size`),
  );
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function compactionJson(r: CompactionBenchResult) {
  const s = r.sessions;
  const stat = (f: (x: SessionResult) => number) => ({ median: round1(med(s.map(f))), min: round1(min(s.map(f))) });
  const byKind = (c: KindCounts) =>
    Object.fromEntries(MUST_KEEP_KINDS.map((k) => [k, { total: c[k].total, pct: c[k].total ? round1(pct(c[k].hit, c[k].total)) : null }]));
  return {
    sessions: s.length,
    turns: { min: min(s.map((x) => x.turns)), max: Math.max(...s.map((x) => x.turns)) },
    reduction_pct: stat((x) => x.reductionPct),
    retention_pct: stat((x) => x.retentionPct),
    planted_extracted_pct: stat((x) => x.plantedExtractedPct),
    planted_recall_pct: stat((x) => x.plantedRecallPct),
    incremental_recall_pct: stat((x) => x.incrementalRecallPct),
    all_retained_when_fit: { sessions_fit: s.filter((x) => x.itemsFit).length, retained: s.filter((x) => x.itemsFit && x.allRetained).length },
    squeezed: { ...SQUEEZE, retention_pct: stat((x) => x.squeezedRetentionPct), by_kind: byKind(r.squeezedByKind) },
    planted_recall_by_kind: byKind(r.plantedByKind),
    overhead_ms: {
      extractive_path: { median: round1(r.overhead.full.medianMs), p95: round1(r.overhead.full.p95Ms) },
      llm_path_engine: { median: round1(r.overhead.engine.medianMs), p95: round1(r.overhead.engine.p95Ms) },
      large_session: { turns: r.large.turns, condensed_tokens: r.large.condensedTokens, extractive_path: round1(r.large.fullMs), llm_path_engine: round1(r.large.engineMs) },
    },
    targets: COMPACTION_TARGETS,
    total_s: round1(r.ms / 1000),
  };
}
