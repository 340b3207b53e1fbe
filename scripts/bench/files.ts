// Files in the conversation (issue 31): how long a 100-page PDF's upload takes to answer and
// its text to be read, and what a PDF attached early in a 40-turn session costs in cache writes
// as the window slides past the turns after it, with a breakpoint after the file and without.
// Runs the app's own routes on an in-memory database against the fake Anthropic server (whose
// prompt cache keeps the API's 20-block lookback); the files live in a temporary folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as sessionRoute from "@/app/api/session/route";
import * as messagesRoute from "@/app/api/session/[id]/messages/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import type { FileInfo } from "@/lib/contract";
import { getDb, openEmbedded, setDb, type Database } from "@/lib/db";
import { LocalFileStore, setFileStore } from "@/lib/storage";
import { makePdf, startFakeAnthropic, type FakeAnthropic } from "../../tests/fake-anthropic/server";
import { fmtMs, table } from "./report";
import { summarize, withEnv, type Stat } from "./stats";

const RUNS = Number(process.env.BENCH_FILES_RUNS ?? 5);
const TURNS = Number(process.env.BENCH_FILES_TURNS ?? 40);
const BASE = "http://127.0.0.1:3000";
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

const WORDS = "the quarterly report shows revenue growth in the northern region while costs of the new warehouse rose faster than planned".split(" ");
const page = (run: number, i: number, words: number) => Array.from({ length: words }, (_, k) => WORDS[(k * 7 + i + run) % WORDS.length]).join(" ") + ` (run ${run}, page ${i + 1})`;

async function newSession(body: object): Promise<string> {
  const res = await sessionRoute.POST(new Request(`${BASE}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), undefined);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

async function upload(sessionId: string, name: string, bytes: Uint8Array): Promise<FileInfo> {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(bytes)], name, { type: "application/pdf" }));
  const res = await sessionFilesRoute.POST(new Request(`${BASE}/api/session/${sessionId}/files`, { method: "POST", body: form }), ctx(sessionId));
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { file: FileInfo }).file;
}

async function files(sessionId: string): Promise<FileInfo[]> {
  const res = await sessionFilesRoute.GET(new Request(`${BASE}/api/session/${sessionId}/files`), ctx(sessionId));
  return ((await res.json()) as { files: FileInfo[] }).files;
}

async function send(sessionId: string, body: object): Promise<void> {
  const res = await messagesRoute.POST(
    new Request(`${BASE}/api/session/${sessionId}/messages`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) }),
    ctx(sessionId),
  );
  if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
  // The lease is given back after the reply; the next send must not race it.
  for (let i = 0; i < 400; i++) {
    const [row] = await getDb().then((db) => db.transaction((tx) => tx.query<{ busy: boolean }>("select turn_lock_id is not null as busy from sessions where id = $1", [sessionId])));
    if (!row?.busy) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface FilesBenchResult {
  pages: number;
  bytes: number;
  upload: Stat;
  extracted: Stat;
  resend: { mode: string; pdfTokens: number; writes: number; reads: number; pdfWrites: number; slides: number }[];
}

async function uploadTimes(): Promise<Pick<FilesBenchResult, "pages" | "bytes" | "upload" | "extracted">> {
  const answered: number[] = [];
  const extracted: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const s = await newSession({});
    // A different PDF each run: the same bytes again would be recognised and not read.
    const pdf = makePdf(Array.from({ length: 100 }, (_, i) => page(run, i, 350)));
    bytes = pdf.length;
    const t0 = performance.now();
    const f = await upload(s, `report-${run}.pdf`, pdf);
    answered.push(performance.now() - t0);
    let state = f.extraction;
    while (state === "pending") {
      await new Promise((r) => setTimeout(r, 10));
      state = (await files(s)).find((x) => x.id === f.id)?.extraction ?? "failed";
    }
    extracted.push(performance.now() - t0);
  }
  return { pages: 100, bytes, upload: summarize(answered), extracted: summarize(extracted) };
}

async function resend(fake: FakeAnthropic, mode: "on" | "off"): Promise<FilesBenchResult["resend"][number]> {
  // Each run starts from a cold cache: the runs send the same conversation.
  fake.reset();
  return withEnv({ THREADKEEPER_FILE_BREAKPOINTS: mode }, async () => {
    const s = await newSession({ settings: { auto_compact: false } });
    const pdf = makePdf(Array.from({ length: 40 }, (_, i) => page(100, i, 120)));
    const f = await upload(s, "handbook.pdf", pdf);
    await send(s, { content: "Here is the handbook we will work from.", attachments: [f.id] });
    // About 3,000 tokens a turn beside a 70,000-token PDF: the window (140,000 on Haiku 4.5) slides every few turns from turn 15 on.
    for (let turn = 2; turn <= TURNS; turn++) await send(s, { content: `Question ${turn}: ${page(turn, turn, 3000)}` });
    const db = await getDb();
    const calls = await db.transaction((tx) =>
      tx.query<{ w: number; r: number; start: number }>(
        `select cache_creation_input_tokens as w, cache_read_input_tokens as r, window_start_turn as start from llm_calls where session_id = $1 and kind = 'chat' order by created_at`,
        [s],
      ),
    );
    const slides = new Set(calls.map((c) => c.start)).size - 1;
    return {
      mode: mode === "on" ? "breakpoint after the file" : "no breakpoint after files",
      pdfTokens: f.tokens,
      writes: calls.reduce((n, c) => n + c.w, 0),
      reads: calls.reduce((n, c) => n + c.r, 0),
      pdfWrites: calls.filter((c) => c.w >= f.tokens * 0.9).length,
      slides,
    };
  });
}

export async function benchFiles(): Promise<FilesBenchResult> {
  const fake = await startFakeAnthropic();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-bench-files-"));
  let previous: Database | null = null;
  const db = await openEmbedded("memory://");
  try {
    previous = await getDb().catch(() => null);
    setDb(db);
    setFileStore(new LocalFileStore(dir));
    return await withEnv(
      {
        ANTHROPIC_API_KEY: "bench",
        ANTHROPIC_BASE_URL: fake.url,
        THREADKEEPER_MODEL: "claude-haiku-4-5",
        THREADKEEPER_MAX_RETRIES: "0",
        THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0",
        THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0",
        THREADKEEPER_OFFLINE_DELAY_MS: "0",
      },
      async () => ({ ...(await uploadTimes()), resend: [await resend(fake, "on"), await resend(fake, "off")] }),
    );
  } finally {
    setFileStore(undefined);
    setDb(previous ?? undefined);
    await db.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printFiles(r: FilesBenchResult): void {
  console.log(`\n## Files: a ${r.pages}-page PDF (${(r.bytes / 1024).toFixed(0)} KB), ${r.upload.runs} runs`);
  console.log(
    table(
      ["", "median", "p95"],
      [
        ["upload answered", fmtMs(r.upload.medianMs), fmtMs(r.upload.p95Ms)],
        ["text read (from the upload's start)", fmtMs(r.extracted.medianMs), fmtMs(r.extracted.p95Ms)],
      ],
    ),
  );
  console.log(`\n## Files: a PDF attached in turn 1 of a ${TURNS}-turn session whose window slides (fake prompt cache, 20-block lookback)`);
  console.log(
    table(
      ["breakpoints", "PDF tokens", "slides", "requests writing the PDF", "cache writes", "cache reads"],
      r.resend.map((x) => [x.mode, String(x.pdfTokens), String(x.slides), String(x.pdfWrites), String(x.writes), String(x.reads)]),
    ),
  );
}

export function filesJson(r: FilesBenchResult) {
  return {
    pdf_pages: r.pages,
    upload_median_ms: r.upload.medianMs,
    upload_p95_ms: r.upload.p95Ms,
    extracted_median_ms: r.extracted.medianMs,
    extracted_p95_ms: r.extracted.p95Ms,
    resend: r.resend,
  };
}
