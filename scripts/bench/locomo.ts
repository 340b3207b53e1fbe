// LoCoMo (issue 18): search, memories and summaries judged on real long conversations that
// nobody here wrote, on the offline path (extractive summaries, the local embedder). The data
// is read at run time from ../shared/data/locomo-dev (LOCOMO_DIR elsewhere); without it the
// section says so and skips. Three measures per conversation (./locomo-passes.ts), beside
// their references:
//   1. history search: an evidence turn in the top 10 (reference: Okapi BM25 over single turns);
//   2. archived memory: a memory (summary or fact) from an evidence session in the top 5
//      (reference: each session's raw text saved as one memory);
//   3. answer visible after a forced compaction to 40 % of the conversation's tokens: the gold
//      answer's words all in what Claude would be sent (references: truncation to the same
//      tokens, the full conversation).
// Environment: LOCOMO_DIR, BENCH_LOCOMO_FILES (comma-separated ids, e.g. "42,43"),
// BENCH_LOCOMO_ROLES ["alternate": the first speaker as the user, the second as the assistant;
// "user": every turn as the user's], BENCH_LOCOMO_IMPORT=1 (also import each conversation as a
// ChatGPT and as a Claude.ai export and measure 1 and 2 again on what was imported; about
// three times the search passes' time: ./locomo-import.ts).
import { performance } from "node:perf_hooks";
import type { Database } from "@/lib/db";
import { loadConversation, locomoDir, locomoFiles } from "./locomo-data";
import { IMPORT_FORMATS, importModeJson, importModeLine, importModeOn, ingestImported, printImportMode, type ImportFidelity, type ImportModeResult } from "./locomo-import";
import { searchPass, visibilityPass, type RoleMode, type SearchPassResult, type VisibilityPassResult } from "./locomo-passes";
import { onFreshDb } from "./recall-passes";
import { fmtMs, statJson, table } from "./report";
import { summarize, withEnv } from "./stats";

export const LOCOMO_TARGETS = { historyTop10Pct: 75, historyOverBm25Points: 10, memoryTop5Pct: 85, visiblePct: 65, minReductionPct: 55 } as const;

/** The README's BM25 reference per file (its own implementation; ours is computed beside it). */
const README_BM25: Record<string, number> = { "42": 65.3, "43": 70.2, "44": 61.0, "47": 65.3, "48": 68.6, "49": 67.9, "50": 58.2 };

const OFFLINE = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined, VOYAGE_API_KEY: undefined } as const;

export interface LocomoConversationResult {
  id: string;
  sessions: number;
  turns: number;
  search: SearchPassResult;
  visibility: VisibilityPassResult;
}

export type LocomoBenchResult = { skipped: string } | { dir: string; roles: RoleMode; conversations: LocomoConversationResult[]; imports: ImportModeResult[]; ms: number };

function rolesEnv(): RoleMode {
  const raw = process.env.BENCH_LOCOMO_ROLES ?? "alternate";
  if (raw !== "alternate" && raw !== "user") throw new Error(`BENCH_LOCOMO_ROLES must be "alternate" or "user", got "${raw}"`);
  return raw;
}

export async function benchLocomo(restore: Database | undefined): Promise<LocomoBenchResult> {
  const dir = locomoDir();
  const only = (process.env.BENCH_LOCOMO_FILES ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const files = locomoFiles(dir).filter((f) => only.length === 0 || only.some((id) => f.endsWith(`/${id}.json`)));
  if (files.length === 0) {
    console.log(`\nLoCoMo: skipped — no conversations in ${dir} (set LOCOMO_DIR to the folder of LoCoMo JSON files).`);
    return { skipped: `no conversations in ${dir}` };
  }
  const roles = rolesEnv();
  const started = performance.now();
  console.log(`\nLoCoMo: ${files.length} conversations from ${dir} (turns stored as ${roles === "user" ? "the user's" : "user / assistant by speaker"})`);
  const conversations: LocomoConversationResult[] = [];
  const imports: ImportModeResult[] = [];
  for (const [i, file] of files.entries()) {
    const c = loadConversation(file);
    const t0 = performance.now();
    const { search, visibility } = await withEnv(OFFLINE, () =>
      onFreshDb(restore, async (db) => ({ search: await searchPass(db, c, 10 + i, roles), visibility: await visibilityPass(db, c, 10 + i, roles) })),
    );
    const turns = c.sessions.reduce((n, s) => n + s.turns.length, 0);
    console.log(`  ${c.id}: ${c.sessions.length} sessions, ${turns} turns, ${c.questions.length} questions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    conversations.push({ id: c.id, sessions: c.sessions.length, turns, search, visibility });
    if (!importModeOn()) continue;
    const imported = {} as ImportModeResult["imported"];
    for (const format of IMPORT_FORMATS) {
      const t1 = performance.now();
      let fidelity: ImportFidelity | undefined;
      const pass = await withEnv(OFFLINE, () => onFreshDb(restore, (db) => searchPass(db, c, 10 + i, roles, ingestImported(format, (f) => (fidelity = f)))));
      imported[format] = { search: pass, fidelity: fidelity! };
      console.log(`    imported as ${format} and measured in ${((performance.now() - t1) / 1000).toFixed(1)} s (the import itself ${fidelity!.importSeconds.toFixed(1)} s)`);
    }
    imports.push({ id: c.id, native: search, imported });
    console.log(importModeLine(imports[imports.length - 1]));
  }
  return { dir, roles, conversations, imports, ms: performance.now() - started };
}

// ------------------------------------------------------------------ printing

const pct = (hit: number, n: number) => (n === 0 ? Number.NaN : (100 * hit) / n);
const p1 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} %` : "-");
const within = (rank: number | null, k: number) => rank !== null && rank <= k;

interface Figures {
  questions: number;
  history: number;
  bm25: number;
  archived: number;
  raw: number;
  archivedAnswer: number;
  rawAnswer: number;
  compacted: number;
  truncated: number;
  full: number;
  reduction: number;
}

function figures(cs: readonly LocomoConversationResult[]): Figures {
  const rows = cs.flatMap((c) => c.search.rows);
  const vis = cs.flatMap((c) => c.visibility.rows);
  const n = rows.length;
  const share = (f: (r: (typeof rows)[number]) => boolean) => pct(rows.filter(f).length, n);
  const vshare = (f: (r: (typeof vis)[number]) => boolean) => pct(vis.filter(f).length, vis.length);
  const hist = cs.reduce((a, c) => a + c.visibility.historyTokens, 0);
  const after = cs.reduce((a, c) => a + c.visibility.historyTokensAfter, 0);
  return {
    questions: n,
    history: share((r) => within(r.history, 10)),
    bm25: share((r) => within(r.bm25, 10)),
    archived: share((r) => within(r.archived, 5)),
    raw: share((r) => within(r.raw, 5)),
    archivedAnswer: share((r) => r.archivedAnswer),
    rawAnswer: share((r) => r.rawAnswer),
    compacted: vshare((r) => r.compacted),
    truncated: vshare((r) => r.truncated),
    full: vshare((r) => r.full),
    reduction: hist > 0 ? 100 * (1 - after / hist) : 0,
  };
}

export function printLocomo(r: LocomoBenchResult): void {
  if ("skipped" in r) return;
  const t = LOCOMO_TARGETS;
  console.log(`\nLoCoMo (issue 18), offline path: ${r.conversations.length} conversations, ${(r.ms / 1000).toFixed(0)} s in all.`);
  const lines = [...r.conversations.map((c) => ({ label: c.id, f: figures([c]), readme: README_BM25[c.id] })), { label: "all", f: figures(r.conversations), readme: undefined }];
  console.log("\n1. History search: an evidence turn in the top 10 (BM25: ours over single turns, and the README's):");
  console.log(
    table(
      ["conversation", "questions", "Threadkeeper", "BM25", "BM25 (README)", "margin", "met"],
      lines.map(({ label, f, readme }) => {
        const bar = Math.max(f.bm25, readme ?? 0);
        const met = label === "all" ? f.history >= t.historyTop10Pct : f.history >= bar + t.historyOverBm25Points;
        return [label, String(f.questions), p1(f.history), p1(f.bm25), readme ? p1(readme) : "", `${(f.history - bar).toFixed(1)}`, met ? "yes" : "NO"];
      }),
    ),
  );
  console.log(`  target: ≥ ${t.historyTop10Pct} % overall and ≥ ${t.historyOverBm25Points} points above BM25 on every conversation`);
  console.log("\n2. Archived memory: a memory from an evidence session in the top 5 (reference: each session's raw text as one memory):");
  console.log(
    table(
      ["conversation", "archived @5", "raw text @5", "answer words in top 5", "raw: answer words", "memories (summaries + facts)", "met"],
      lines.map(({ label, f }) => {
        const c = r.conversations.find((x) => x.id === label);
        const mem = c ? `${c.search.memories.summaries} + ${c.search.memories.facts}` : "";
        return [label, p1(f.archived), p1(f.raw), p1(f.archivedAnswer), p1(f.rawAnswer), mem, label === "all" ? (f.archived >= t.memoryTop5Pct ? "yes" : "NO") : ""];
      }),
    ),
  );
  console.log(`  target: ≥ ${t.memoryTop5Pct} % overall`);
  console.log("\n3. Answer visible after a forced compaction to 40 % of the conversation (the gold answer's words all in what Claude would be sent):");
  console.log(
    table(
      ["conversation", "after compaction", "truncation", "full", "reduction", "method", "compaction", "met"],
      lines.map(({ label, f }) => {
        const c = r.conversations.find((x) => x.id === label);
        const met = f.compacted >= t.visiblePct && f.reduction >= t.minReductionPct;
        return [label, p1(f.compacted), p1(f.truncated), p1(f.full), p1(f.reduction), c?.visibility.method ?? "", c ? fmtMs(c.visibility.compactionMs) : "", label === "all" ? (met ? "yes" : "NO") : ""];
      }),
    ),
  );
  console.log(`  target: ≥ ${t.visiblePct} % at ≥ ${t.minReductionPct} % reduction`);
  const all = r.conversations;
  const h = summarize(all.flatMap((c) => c.search.historyMs));
  const m = summarize(all.flatMap((c) => c.search.memoryMs));
  const a = summarize(all.flatMap((c) => c.search.archiveMs));
  console.log(`  searchHistory ${fmtMs(h.medianMs)} p50 / ${fmtMs(h.p95Ms)} p95; searchMemories ${fmtMs(m.medianMs)} / ${fmtMs(m.p95Ms)}; archiveSession ${fmtMs(a.medianMs)} / ${fmtMs(a.p95Ms)}`);
  printImportMode(r.imports);
}

const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

export function locomoJson(r: LocomoBenchResult) {
  if ("skipped" in r) return r;
  const json = (f: Figures) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, r1(v)]));
  return {
    roles: r.roles,
    targets: LOCOMO_TARGETS,
    conversations: Object.fromEntries(r.conversations.map((c) => [c.id, json(figures([c]))])),
    all: json(figures(r.conversations)),
    search_history: statJson(summarize(r.conversations.flatMap((c) => c.search.historyMs))),
    search_memories: statJson(summarize(r.conversations.flatMap((c) => c.search.memoryMs))),
    imports: importModeJson(r.imports),
    total_s: r1(r.ms / 1000),
  };
}
