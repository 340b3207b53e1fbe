// Import and export (issue 34): how fast a generated ChatGPT export of about 100 MB imports
// (messages a second, end to end: reading, counting, storing, indexing triggers), how much
// memory the process takes meanwhile (peak RSS and heap over the start), and how long a
// 10,000-message session takes to export as JSON and as Markdown. On an embedded database in a
// temporary folder (its pages on disk, as in use); BENCH_IMPORT_MB changes the size.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getDb, LOCAL_USER_ID, openEmbedded, setDb, withUser, type Database } from "@/lib/db";
import { getImport } from "@/lib/db/imports";
import { sessionMarkdown } from "@/lib/export/markdown";
import { exportSession } from "@/lib/operations/export";
import { startImport, uploadTarget } from "@/lib/operations/import-job";
import { LocalFileStore, setFileStore } from "@/lib/storage";
import { fmtMs, table } from "./report";
import { summarize, withEnv, type Stat } from "./stats";

const MB = Number(process.env.BENCH_IMPORT_MB ?? 100);
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

export interface ImportBenchResult {
  mb: number;
  conversations: number;
  messages: number;
  seconds: number;
  perSecond: number;
  peakRssMb: number;
  peakHeapMb: number;
  exportMessages: number;
  exportJson: Stat;
  exportMd: Stat;
}

async function importThroughput(dir: string): Promise<Omit<ImportBenchResult, "exportMessages" | "exportJson" | "exportMd">> {
  const file = path.join(dir, "conversations.json");
  const made = chatGptExport(file, MB);
  const size = fs.statSync(file).size;
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const target = await uploadTarget();
  fs.copyFileSync(file, target);
  const t0 = performance.now();
  const job = await startImport(LOCAL_USER_ID, target, { fileName: "conversations.json", bytes: size });
  for (;;) {
    const row = await withUser(LOCAL_USER_ID, (tx) => getImport(tx, LOCAL_USER_ID, job.id));
    if (row && row.status !== "running") {
      if (row.status !== "done" || row.imported !== made.conversations) throw new Error(`import ${row.status}: ${row.imported} of ${made.conversations}, ${row.error ?? ""}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  return {
    mb: size / 1024 / 1024,
    ...made,
    seconds,
    perSecond: made.messages / seconds,
    peakRssMb: (peakRss - base.rss) / 1024 / 1024,
    peakHeapMb: (peakHeap - base.heapUsed) / 1024 / 1024,
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

export async function benchImport(): Promise<ImportBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-bench-import-"));
  let previous: Database | null = null;
  const db = await openEmbedded(path.join(dir, "db"));
  try {
    previous = await getDb().catch(() => null);
    setDb(db);
    setFileStore(new LocalFileStore(path.join(dir, "files")));
    return await withEnv({ THREADKEEPER_FILES_DIR: path.join(dir, "files") }, async () => ({ ...(await importThroughput(dir)), ...(await exportTimes(dir)) }));
  } finally {
    setFileStore(undefined);
    setDb(previous ?? undefined);
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printImport(r: ImportBenchResult): void {
  console.log(`\n## Import: a generated ChatGPT export of ${r.mb.toFixed(0)} MB (${r.conversations} conversations, ${r.messages} messages), embedded database on disk`);
  console.log(
    table(
      ["", "figure"],
      [
        ["import, end to end", `${r.seconds.toFixed(1)} s, ${r.perSecond.toFixed(0)} messages/s`],
        ["peak RSS / heap over the start", `${r.peakRssMb.toFixed(0)} MB / ${r.peakHeapMb.toFixed(0)} MB`],
        [`export a ${r.exportMessages}-message session as JSON (median, p95)`, `${fmtMs(r.exportJson.medianMs)} (${fmtMs(r.exportJson.p95Ms)})`],
        [`… as Markdown`, `${fmtMs(r.exportMd.medianMs)} (${fmtMs(r.exportMd.p95Ms)})`],
      ],
    ),
  );
}

export function importJsonFigures(r: ImportBenchResult) {
  return {
    import_mb: r.mb,
    import_messages: r.messages,
    import_messages_per_s: r.perSecond,
    import_peak_rss_mb: r.peakRssMb,
    import_peak_heap_mb: r.peakHeapMb,
    export_messages: r.exportMessages,
    export_json_median_ms: r.exportJson.medianMs,
    export_md_median_ms: r.exportMd.medianMs,
  };
}
