// `npm run bench`: performance figures against the docs/architecture.md targets, on an in-memory PGlite
// with seeded long sessions. Prints tables and, last, one JSON line. Benchmarks are separate
// modules under scripts/bench/: context, compaction, sessions (checkpoints, resume, picker), memory,
// recall (issue 11: facts kept through compaction, memory and history search), dropin (issue 21:
// the drop-in Messages API's overhead and a resent history's cost), openai (issue 32: the
// OpenAI-compatible endpoint's, the same way), load (issue 22: two instances
// over real PostgreSQL; BENCH_LOAD_* in scripts/bench/load.ts), locomo (issue 18: the
// same on real conversations, ../shared/data/locomo-dev), hostile (issue 29: every per-character
// algorithm on pathological text, and the event-loop stalls; BENCH_HOSTILE_* in scripts/bench/hostile.ts), list (issue 33:
// a 5,000-message session's list scrolled in Chromium, its longest frame and DOM size; BENCH_LIST_* in scripts/bench/list.ts), live (issue 33:
// two Chromium tabs on one session, the time from a reply's last token in one to its display in the other; BENCH_LIVE_* in scripts/bench/live.ts), import (issue 34:
// a generated ~100 MB ChatGPT export imported, messages/s and peak memory, and a 10,000-message session exported; BENCH_IMPORT_* in scripts/bench/import.ts).
//
// Environment: BENCH_SIZES (default "1000,10000"), BENCH_RUNS (15), BENCH_WARMUPS (3),
// BENCH_NAIVE_RUNS / BENCH_NAIVE_WARMUPS (default: same as above), BENCH_ONLY (comma-separated:
// context, compaction, sessions, memory, auth, cost, audit, keys, dropin, openai, load, usage, search, recall, canvas, locomo, hostile, content, files, import, list, live; default: all; BENCH_COST_TURNS (200)); BENCH_MEMORY_* as in
// scripts/bench/memory.ts, BENCH_USAGE_* as in scripts/bench/usage.ts, BENCH_SEARCH_* as in scripts/bench/search.ts, BENCH_RECALL_* as in
// scripts/bench/recall.ts.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { openEmbedded, setDb } from "@/lib/db";
import { benchCompaction, compactionJson, printCompaction } from "./bench/compaction";
import { benchSessions, printSessions, sessionsJson } from "./bench/sessions";
import { benchMemory, memoryJson, printMemory } from "./bench/memory";
import { benchContext, type ContextBenchResult } from "./bench/context";
import { authJson, benchAuth, printAuth } from "./bench/auth";
import { benchCost, costJson, printCost } from "./bench/cost";
import { auditJson, benchAudit, printAudit } from "./bench/audit";
import { benchUsage, printUsage, usageJson } from "./bench/usage";
import { benchKeys, keysJson, printKeys } from "./bench/keys";
import { benchDropIn, dropInJson, printDropIn } from "./bench/drop-in";
import { benchOpenAI, openaiJson, printOpenAI } from "./bench/openai";
import { benchLoad, loadJson, printLoad } from "./bench/load";
import { benchList, listJson, printList } from "./bench/list";
import { benchLive, liveJson, printLive } from "./bench/live";
import { benchSearch, printSearch, searchJson } from "./bench/search";
import { benchRecall, printRecall, recallJson } from "./bench/recall";
import { benchCanvas, canvasJson, printCanvas } from "./bench/canvas";
import { benchLocomo, locomoJson, printLocomo } from "./bench/locomo";
import { benchHostile, hostileJson, printHostile } from "./bench/hostile";
import { benchContent, contentJson, printContent } from "./bench/content";
import { benchFiles, filesJson, printFiles } from "./bench/files";
import { benchImport, importJsonFigures, printImport } from "./bench/import";
import { benchHostileApp, hostileAppJson, printHostileApp } from "./bench/hostile-app";
import { benchHostileHistory, hostileHistoryJson, printHostileHistory } from "./bench/hostile-history";
import { fmtInt, fmtMs, fmtRatio, statJson, table } from "./bench/report";
import { buildPool, seedSession } from "./bench/seed";
import { intEnv, type MeasureOptions } from "./bench/stats";

const SECTIONS = ["context", "compaction", "sessions", "memory", "auth", "cost", "audit", "keys", "dropin", "openai", "load", "usage", "search", "recall", "canvas", "locomo", "hostile", "content", "files", "import", "list", "live"] as const;
type Section = (typeof SECTIONS)[number];

/** BENCH_ONLY: a comma-separated list of sections to run (default: all). */
function onlyEnv(): ReadonlySet<Section> {
  const raw = (process.env.BENCH_ONLY ?? "").trim();
  if (raw === "") return new Set(SECTIONS);
  const picked = raw.split(",").map((s) => s.trim());
  for (const p of picked) {
    if (!(SECTIONS as readonly string[]).includes(p)) throw new Error(`BENCH_ONLY: unknown section "${p}" (${SECTIONS.join(", ")})`);
  }
  return new Set(picked as Section[]);
}

function sizesEnv(): number[] {
  const raw = process.env.BENCH_SIZES ?? "1000,10000";
  return raw.split(",").map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 2) throw new Error(`BENCH_SIZES: bad size "${s}"`);
    return n;
  });
}

const OP_LABEL = { status: "context status", window: "window assembly", count: "count one new message" } as const;

function printContext(results: ContextBenchResult[], ours: MeasureOptions, naive: MeasureOptions): void {
  console.log(
    `\nContext benchmarks: medians (p95) over ${ours.runs} runs after ${ours.warmups} warm-ups` +
      ` (naive: ${naive.runs} after ${naive.warmups}); window figures are steady state, after the first send slid the window.`,
  );
  const rows: string[][] = [];
  for (const r of results) {
    for (const o of r.ops) {
      rows.push([
        `${fmtInt(r.facts.messages)} msgs`,
        OP_LABEL[o.operation],
        fmtMs(o.ours.medianMs),
        fmtMs(o.ours.p95Ms),
        fmtMs(o.naive.medianMs),
        fmtMs(o.naive.p95Ms),
        fmtRatio(o.naive, o.ours),
        o.targetText,
        o.met ? "yes" : "NO",
      ]);
    }
  }
  console.log(
    table(["session", "operation", "ours p50", "ours p95", "naive p50", "naive p95", "naive/ours", "target (p50)", "met"], rows),
  );

  console.log("\nSessions and windows:");
  const facts = results.map((r) => r.facts);
  console.log(
    table(
      ["session", "turns", "raw tokens", "C", "factor", "1st send", "slid turns", "cutoff turn", "kept msgs", "kept raw", "kept calibr.", "status"],
      facts.map((f) => [
        `${fmtInt(f.messages)} msgs`,
        fmtInt(f.turns),
        fmtInt(f.seededRawTokens),
        fmtInt(f.capacity),
        f.calibration.toFixed(2),
        fmtMs(f.firstAssembly.ms),
        fmtInt(f.firstAssembly.droppedTurns),
        fmtInt(f.window.cutoffTurnSeq),
        fmtInt(f.window.keptMessages),
        fmtInt(f.window.rawTokens),
        fmtInt(f.window.calibratedTokens),
        `${f.status.usagePercent}% ${f.status.level}`,
      ]),
    ),
  );
  console.log("(naive newest-backwards window agrees: same cutoff and kept count; recount + 4 framing tokens/msg = stored counts)");

  console.log("\nWhere window assembly time goes (medians):");
  console.log(
    table(
      ["session", "empty withUser tx", "+ session/settings/calib.", "+ read pinned & tail rows", "engine (group+select)"],
      facts.map((f) => [
        `${fmtInt(f.messages)} msgs`,
        fmtMs(f.windowBreakdown.emptyTxMs),
        fmtMs(f.windowBreakdown.sessionAndContextMs),
        fmtMs(f.windowBreakdown.dbReadMs),
        fmtMs(f.windowBreakdown.engineMs),
      ]),
    ),
  );
  for (const f of facts) {
    const perMsg = (f.windowBreakdown.dbReadMs - f.windowBreakdown.sessionAndContextMs) / f.window.keptMessages;
    console.log(`  ${fmtInt(f.messages)} msgs: row reads ≈ ${(perMsg * 1000).toFixed(1)} µs per window message (${fmtInt(f.window.keptMessages)} read)`);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const ours: MeasureOptions = { warmups: intEnv("BENCH_WARMUPS", 3), runs: intEnv("BENCH_RUNS", 15) };
  const naive: MeasureOptions = {
    warmups: intEnv("BENCH_NAIVE_WARMUPS", ours.warmups),
    runs: intEnv("BENCH_NAIVE_RUNS", ours.runs),
  };
  const only = onlyEnv();
  // Routes are called here far faster than anyone would: a per-minute limit they never reach keeps
  // 429s out of the figures, while every request still pays for its accounting.
  process.env.THREADKEEPER_RATE_LIMIT_PER_MINUTE ??= "1000000";
  const sizes = only.has("context") ? sizesEnv() : [];

  console.log(`Threadkeeper bench — node ${process.version}, ${os.cpus().length} CPUs, in-memory PGlite`);
  const db = await openEmbedded("memory://");
  setDb(db);
  try {
    const pool = buildPool();
    const context: ContextBenchResult[] = [];
    for (const size of sizes) {
      const t0 = performance.now();
      const seeded = await seedSession(db, pool, size, `bench ${size}`);
      console.log(
        `seeded ${fmtInt(size)} messages (${fmtInt(seeded.tokens)} raw tokens, ` +
          `avg ${(seeded.tokens / size).toFixed(0)}/msg) in ${fmtMs(performance.now() - t0)}`,
      );
      const t1 = performance.now();
      context.push(await benchContext(seeded, { ours, naive, micro: ours }));
      console.log(`  measured in ${fmtMs(performance.now() - t1)}`);
    }
    if (context.length > 0) printContext(context, ours, naive);
    // Pure engine, no database: it only shares the process with the context benchmarks.
    const compaction = only.has("compaction") ? await benchCompaction() : null;
    if (compaction) printCompaction(compaction);
    const sessions = only.has("sessions") ? await benchSessions(db, pool, ours) : null;
    if (sessions) printSessions(sessions);
    const auth = only.has("auth") ? await benchAuth(db, pool, ours) : null;
    if (auth) printAuth(auth);
    const cost = only.has("cost") ? await benchCost(db, pool) : null;
    if (cost) printCost(cost);
    const auditLog = only.has("audit") ? await benchAudit(db, pool, ours) : null;
    if (auditLog) printAudit(auditLog);
    const keys = only.has("keys") ? await benchKeys(db, ours) : null;
    if (keys) printKeys(keys);
    const dropIn = only.has("dropin") ? await benchDropIn(db, ours) : null;
    if (dropIn) printDropIn(dropIn);
    const openai = only.has("openai") ? await benchOpenAI(ours) : null;
    if (openai) printOpenAI(openai);
    // Its own cluster and two app processes (needs the built app).
    const load = only.has("load") ? await benchLoad() : null;
    if (load) printLoad(load);
    const list = only.has("list") ? await benchList(db) : null;
    if (list) printList(list);
    // Two tabs of one browser on the built app, on its own data folder.
    const live = only.has("live") ? await benchLive(ours) : null;
    if (live) printLive(live);
    // Its own database (100K memories); getDb() points back to `db` afterwards.
    const memory = only.has("memory") ? await benchMemory(db) : null;
    if (memory) printMemory(memory);
    // Its own database too (1.2M calls).
    const usage = only.has("usage") ? await benchUsage(db, ours) : null;
    if (usage) printUsage(usage, ours);
    // Its own databases too (100K and 1M messages).
    const search = only.has("search") ? await benchSearch(db) : null;
    if (search) printSearch(search);
    // Its own databases too, one per pass.
    const recall = only.has("recall") ? await benchRecall(db) : null;
    if (recall) printRecall(recall);
    const canvas = only.has("canvas") ? await benchCanvas(db, ours) : null;
    if (canvas) printCanvas(canvas);
    // Its own databases too, one per conversation; skips when the data is absent.
    const locomo = only.has("locomo") ? await benchLocomo(db) : null;
    if (locomo) printLocomo(locomo);
    // Thinking, a PDF and images counted against the fake's counts; a PDF resent every turn (issue 30).
    const content = only.has("content") ? await benchContent() : null;
    if (content) printContent(content);
    // A 100-page PDF's upload and extraction; a PDF resent over 40 turns, with and without a breakpoint after it (issue 31).
    const files = only.has("files") ? await benchFiles() : null;
    if (files) printFiles(files);
    const imported = only.has("import") ? await benchImport() : null;
    if (imported) printImport(imported);
    // Pure algorithms and the token worker on hostile text (issue 29); no database.
    const hostile = only.has("hostile") ? await benchHostile() : null;
    if (hostile) printHostile(hostile);
    // A long drop-in history on its own database; then the scenarios against the built app.
    const hostileHistory = only.has("hostile") ? await benchHostileHistory() : null;
    if (hostileHistory) printHostileHistory(hostileHistory);
    setDb(db);
    const hostileApp = only.has("hostile") ? await benchHostileApp() : null;
    if (hostileApp) printHostileApp(hostileApp);

    const json = {
      bench: "threadkeeper",
      node: process.version,
      cpus: os.cpus().length,
      runs: { ours, naive },
      context: context.map((r) => ({
        messages: r.facts.messages,
        facts: r.facts,
        ops: r.ops.map((o) => ({
          operation: o.operation,
          ours: statJson(o.ours),
          naive: statJson(o.naive),
          ratio: Math.round((o.naive.medianMs / o.ours.medianMs) * 10) / 10,
          target_ms: o.targetMs,
          met: o.met,
        })),
      })),
      compaction: compaction ? compactionJson(compaction) : null,
      sessions: sessions ? sessionsJson(sessions) : null,
      memory: memory ? memoryJson(memory) : null,
      auth: auth ? authJson(auth) : null,
      cost: cost ? costJson(cost) : null,
      audit: auditLog ? auditJson(auditLog) : null,
      usage: usage ? usageJson(usage) : null,
      keys: keys ? keysJson(keys) : null,
      drop_in: dropIn ? dropInJson(dropIn) : null,
      openai: openai ? openaiJson(openai) : null,
      load: load ? loadJson(load) : null,
      list: list ? listJson(list) : null,
      live: live ? liveJson(live) : null,
      search: search ? searchJson(search) : null,
      recall: recall ? recallJson(recall) : null,
      canvas: canvas ? canvasJson(canvas) : null,
      locomo: locomo ? locomoJson(locomo) : null,
      hostile: hostile ? hostileJson(hostile) : null,
      content: content ? contentJson(content) : null,
      files: files ? filesJson(files) : null,
      import: imported ? importJsonFigures(imported) : null,
      hostile_history: hostileHistory ? hostileHistoryJson(hostileHistory) : null,
      hostile_app: hostileApp ? hostileAppJson(hostileApp) : null,
      total_s: Math.round((performance.now() - started) / 100) / 10,
    };
    console.log(`\nTotal ${json.total_s} s`);
    console.log(JSON.stringify(json));
  } finally {
    setDb(undefined);
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
