// Import and export (issue 34): how fast a generated ChatGPT export imports (messages a second,
// end to end: reading, counting, storing, indexing triggers), how much memory the process takes
// meanwhile, and how long a 10,000-message session takes to export as JSON and as Markdown.
// Each size is imported into its own embedded database in a temporary folder (its pages on
// disk, as in use). BENCH_IMPORT_MB: the sizes, comma-separated (default 25,100: memory that
// does not grow from one to the other is bounded). Peak memory is the process's (all threads,
// the database's WebAssembly heap included): the kernel's high-water mark of resident memory,
// reset to the current size just before the import (Linux: /proc/self/clear_refs), less the
// resident size then; a 50 ms sampler of RSS and the V8 heap stands beside it (and in its place
// where the high-water mark cannot be reset).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { getDb, LOCAL_USER_ID, openEmbedded, setDb, withUser, type Database } from "@/lib/db";
import { getImport } from "@/lib/db/imports";
import { sessionMarkdown } from "@/lib/export/markdown";
import { exportSession } from "@/lib/operations/export";
import { startImport, uploadTarget } from "@/lib/operations/import-job";
import { LocalFileStore, setFileStore } from "@/lib/storage";
import { fmtMs, table } from "./report";
import { summarize, withEnv, type Stat } from "./stats";

const SIZES_MB = (process.env.BENCH_IMPORT_MB ?? "25,100").split(",").map((x) => Number(x.trim())).filter((x) => x > 0);
const EXPORT_MESSAGES = Number(process.env.BENCH_EXPORT_MESSAGES ?? 10_000);
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 5);
const WORDS = "the garden plan needs tomatoes basil and a path of gravel between the beds while the shed keeps tools seeds and the old bicycle".split(" ");
const text = (seed: number, words: number) => Array.from({ length: words }, (_, k) => WORDS[(k * 7 + seed) % WORDS.length]).join(" ") + ` (${seed})`;

/** A ChatGPT conversations.json of about `mb` megabytes: conversations of 50 messages of about 2 KB. */
function chatGptExport(file: string, mb: number): { conversations: number; messages: number } {
  const out = fs.openSync(file, "w");
  fs.writeSync(out, "[");
  let bytes = 0;
  let conversations = 0;
  let messages = 0;
  for (let c = 0; bytes < mb * 1024 * 1024; c++) {
    const mapping: Record<string, unknown> = { root: { id: "root", message: null, parent: null, children: ["m0"] } };
    for (let i = 0; i < 50; i++) {
      const id = `m${i}`;
      mapping[id] = {
        id,
        parent: i === 0 ? "root" : `m${i - 1}`,
        children: i === 49 ? [] : [`m${i + 1}`],
        message: { id, author: { role: i % 2 === 0 ? "user" : "assistant" }, create_time: 1_700_000_000 + c * 1000 + i, content: { content_type: "text", parts: [text(c * 50 + i, 300)] }, metadata: {} },
      };
    }
    const json = JSON.stringify({ id: `bench-${c}`, title: `Conversation ${c}`, create_time: 1_700_000_000 + c * 1000, current_node: "m49", mapping });
    fs.writeSync(out, (c === 0 ? "" : ",") + json);
    bytes += json.length + 1;
    conversations++;
    messages += 50;
  }
  fs.writeSync(out, "]");
  fs.closeSync(out);
  return { conversations, messages };
}

export interface ImportRun {
  mb: number;
  conversations: number;
  messages: number;
  seconds: number;
  perSecond: number;
  /** Resident memory before the import (after a collection), MB. */
  baseRssMb: number;
  /** The kernel's high-water mark over the base (null: it could not be reset here). */
  peakRssMb: number | null;
  /** The sampler's highest RSS and V8 heap over the base. */
  sampledRssMb: number;
  sampledHeapMb: number;
  /** Resident memory over the base once the import is done (what stays). */
  afterRssMb: number;
}

export interface ImportBenchResult {
  runs: ImportRun[];
  exportMessages: number;
  exportJson: Stat;
  exportMd: Stat;
}

const MiB = 1024 * 1024;

/** A full collection, when this process can ask for one (V8 exposes gc to a fresh context once the flag is set). */
function collect(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/** Linux's resident-memory high-water mark, reset to the resident size now; false elsewhere. */
function resetPeak(): boolean {
  try {
    fs.writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

function statusKb(field: "VmHWM" | "VmRSS"): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function importThroughput(dir: string, mb: number): Promise<ImportRun> {
  const file = path.join(dir, "conversations.json");
  const made = chatGptExport(file, mb);
  const size = fs.statSync(file).size;
  const target = await uploadTarget();
  fs.renameSync(file, target);
  collect();
  const base = process.memoryUsage();
  const hwm = resetPeak();
  let sampledRss = base.rss;
  let sampledHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    sampledRss = Math.max(sampledRss, m.rss);
    sampledHeap = Math.max(sampledHeap, m.heapUsed);
  }, 50);
  const t0 = performance.now();
  try {
    const job = await startImport(LOCAL_USER_ID, target, { fileName: "conversations.json", bytes: size });
    for (;;) {
      const row = await withUser(LOCAL_USER_ID, (tx) => getImport(tx, LOCAL_USER_ID, job.id));
      if (row && row.status !== "running") {
        if (row.status !== "done" || row.imported !== made.conversations) throw new Error(`import ${row.status}: ${row.imported} of ${made.conversations}, ${row.error ?? ""}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  const peakKb = hwm ? statusKb("VmHWM") : null;
  collect();
  const after = process.memoryUsage();
  return {
    mb: size / MiB,
    ...made,
    seconds,
    perSecond: made.messages / seconds,
    baseRssMb: base.rss / MiB,
    peakRssMb: peakKb === null ? null : (peakKb * 1024 - base.rss) / MiB,
    sampledRssMb: (sampledRss - base.rss) / MiB,
    sampledHeapMb: (sampledHeap - base.heapUsed) / MiB,
    afterRssMb: (after.rss - base.rss) / MiB,
  };
}

async function exportTimes(dir: string): Promise<Pick<ImportBenchResult, "exportMessages" | "exportJson" | "exportMd">> {
  // One conversation of EXPORT_MESSAGES messages, imported (the quickest way to make one).
  const file = path.join(dir, "long.json");
  const mapping: Record<string, unknown> = {};
  for (let i = 0; i < EXPORT_MESSAGES; i++) {
    mapping[`m${i}`] = {
      id: `m${i}`,
      parent: i === 0 ? null : `m${i - 1}`,
      children: [],
      message: { id: `m${i}`, author: { role: i % 2 === 0 ? "user" : "assistant" }, create_time: 1_700_000_000 + i, content: { content_type: "text", parts: [text(i, 60)] }, metadata: {} },
    };
  }
  fs.writeFileSync(file, JSON.stringify([{ id: "long", title: "Long", current_node: `m${EXPORT_MESSAGES - 1}`, mapping }]));
  const target = await uploadTarget();
  fs.copyFileSync(file, target);
  const job = await startImport(LOCAL_USER_ID, target, { fileName: "long.json", bytes: fs.statSync(file).size });
  let sessionId: string | null = null;
  for (;;) {
    const row = await withUser(LOCAL_USER_ID, (tx) => getImport(tx, LOCAL_USER_ID, job.id));
    if (row && row.status !== "running") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const db = await getDb();
  [{ id: sessionId }] = await db.transaction((tx) => tx.query<{ id: string }>("select id from sessions where import_source_id = 'long'"));
  const json: number[] = [];
  const md: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const doc = await exportSession(LOCAL_USER_ID, sessionId!);
    JSON.stringify(doc);
    const t1 = performance.now();
    sessionMarkdown(await exportSession(LOCAL_USER_ID, sessionId!));
    const t2 = performance.now();
    json.push(t1 - t0);
    md.push(t2 - t1);
  }
  return { exportMessages: EXPORT_MESSAGES, exportJson: summarize(json), exportMd: summarize(md) };
}

/** `fn` on a fresh embedded database and file store in a temporary folder, removed after. */
async function onFreshFolder<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-bench-import-"));
  const previous: Database | null = await getDb().catch(() => null);
  const db = await openEmbedded(path.join(dir, "db"));
  try {
    setDb(db);
    setFileStore(new LocalFileStore(path.join(dir, "files")));
    return await withEnv({ THREADKEEPER_FILES_DIR: path.join(dir, "files") }, () => fn(dir));
  } finally {
    setFileStore(undefined);
    setDb(previous ?? undefined);
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchImport(): Promise<ImportBenchResult> {
  const runs: ImportRun[] = [];
  for (const mb of SIZES_MB) {
    const run = await onFreshFolder((dir) => importThroughput(dir, mb));
    console.log(`  import of ${run.mb.toFixed(0)} MB: ${run.seconds.toFixed(1)} s`);
    runs.push(run);
  }
  return { runs, ...(await onFreshFolder(exportTimes)) };
}

const mbs = (x: number | null) => (x === null ? "-" : `${x >= 0 ? "+" : ""}${x.toFixed(0)} MB`);

export function printImport(r: ImportBenchResult): void {
  console.log(`\n## Import: generated ChatGPT exports (conversations of 50 messages of ~2 KB), each into a fresh embedded database on disk`);
  console.log(
    table(
      ["export", "conversations", "messages", "import, end to end", "messages/s", "peak RSS (high-water)", "peak RSS / heap (sampled)", "RSS after", "base RSS"],
      r.runs.map((x) => [
        `${x.mb.toFixed(0)} MB`,
        String(x.conversations),
        String(x.messages),
        `${x.seconds.toFixed(1)} s`,
        x.perSecond.toFixed(0),
        mbs(x.peakRssMb),
        `${mbs(x.sampledRssMb)} / ${mbs(x.sampledHeapMb)}`,
        mbs(x.afterRssMb),
        `${x.baseRssMb.toFixed(0)} MB`,
      ]),
    ),
  );
  console.log("  peak and after: over the base, the process as a whole (all threads, the database's WebAssembly memory)");
  console.log(
    table(
      ["export", "median (p95)"],
      [
        [`a ${r.exportMessages}-message session as JSON`, `${fmtMs(r.exportJson.medianMs)} (${fmtMs(r.exportJson.p95Ms)})`],
        [`… as Markdown`, `${fmtMs(r.exportMd.medianMs)} (${fmtMs(r.exportMd.p95Ms)})`],
      ],
    ),
  );
}

export function importJsonFigures(r: ImportBenchResult) {
  const largest = r.runs.reduce<ImportRun | null>((a, x) => (a === null || x.mb > a.mb ? x : a), null);
  return {
    import_mb: largest?.mb ?? null,
    import_messages: largest?.messages ?? null,
    import_messages_per_s: largest?.perSecond ?? null,
    import_peak_rss_mb: largest?.peakRssMb ?? largest?.sampledRssMb ?? null,
    import_peak_heap_mb: largest?.sampledHeapMb ?? null,
    import_runs: r.runs,
    export_messages: r.exportMessages,
    export_json_median_ms: r.exportJson.medianMs,
    export_md_median_ms: r.exportMd.medianMs,
  };
}
