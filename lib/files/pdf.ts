// A PDF's text, page by page, for history search and the document's token facts. unpdf (pdf.js
// packaged for servers) does the parsing; this module holds it to the API's limits and keeps it
// off the event loop.
//
// Why a worker thread: in Node, pdf.js runs its "worker" on the calling thread and hands work
// between its halves with promises, so an extraction never yields to timers or I/O. Measured
// here on the main thread: a 100-page PDF blocked the event loop ~550 ms in one stretch, 600
// pages ~1.4 s, a 30 MB corrupt file (pdf.js re-indexes every object) ~0.6 s. On a worker the
// longest stall is the copy of the bytes. A worker per PDF also gives the budget teeth
// (terminate() stops a parse that a timer alone could only stop waiting for) and a heap cap,
// so a hostile file costs one worker, not the server.
//
// As in lib/tokens/off-thread.ts, the worker is an inline CommonJS source: it requires unpdf
// from the working directory (the app's root under `next dev`/`next start`, the standalone
// server's folder in the image, where next.config.ts's tracing includes unpdf's files), so
// Next.js has no worker file to bundle or resolve. It is marked server-only because browser
// code may import layer 1.
import "server-only";
import { Worker } from "node:worker_threads";
import { storableText } from "@/lib/contract/input-guard";

/** The Messages API's page limit for a request (100 on models with a 200k window). */
export const MAX_PDF_PAGES = 600;
/** The API's request limit: a PDF cannot be larger than the request that carries it. */
export const MAX_PDF_BYTES = 32 * 1024 * 1024;
/** Parsing time allowed for one PDF; 600 dense pages take ~1.5 s here. */
export const PDF_TIME_BUDGET_MS = 20_000;
/** Workers parsing at once; more wait their turn (two cores, and each may hold a large heap). */
const MAX_PARALLEL = 2;
/** The worker's heap cap: a 600-page PDF needs ~150 MB here, a bomb should die early. */
const WORKER_HEAP_MB = 512;

/**
 * Why a PDF was refused. "unavailable" is the server's fault (unpdf could not load: a 500);
 * every other reason is the file's (a 400).
 */
export type PdfProblem = "not_pdf" | "too_large" | "too_many_pages" | "encrypted" | "unreadable" | "too_slow" | "unavailable";

export class PdfError extends Error {
  constructor(
    readonly problem: PdfProblem,
    message: string,
    readonly details?: Record<string, number>,
  ) {
    super(message);
    this.name = "PdfError";
  }
}

export interface PdfText {
  pages: number;
  /** One entry per page, in order; "" for a page with no text layer (a scan). */
  pageTexts: string[];
}

export interface ReadPdfOptions {
  /** At most this many pages (default MAX_PDF_PAGES); the model's own limit may be lower. */
  maxPages?: number;
  /** Parsing budget in ms (default PDF_TIME_BUDGET_MS), counted from the worker's start. */
  timeoutMs?: number;
}

/**
 * "%PDF-" within the first 1024 bytes: readers (Acrobat, pdf.js) allow bytes before the header,
 * and nothing else starts with it. An HTML error page saved as .pdf fails here.
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024) - 5;
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) return true;
  }
  return false;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  let unpdf;
  try {
    unpdf = require("unpdf");
  } catch (error) {
    parentPort.postMessage({ kind: "unavailable", message: String(error && error.message) });
    return;
  }
  try {
    // No eval (font programs compiled to JS), no system fonts, quiet: only the text is wanted.
    const pdf = await unpdf.getDocumentProxy(workerData.bytes, {
      isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0,
    });
    if (pdf.numPages > workerData.maxPages) {
      parentPort.postMessage({ kind: "too_many_pages", pages: pdf.numPages });
      return;
    }
    const { totalPages, text } = await unpdf.extractText(pdf, { mergePages: false });
    parentPort.postMessage({ kind: "ok", pages: totalPages, pageTexts: text });
  } catch (error) {
    parentPort.postMessage({ kind: "error", name: String(error && error.name), message: String(error && error.message) });
  }
})();
`;

type Reply =
  | { kind: "ok"; pages: number; pageTexts: string[] }
  | { kind: "too_many_pages"; pages: number }
  | { kind: "unavailable"; message: string }
  | { kind: "error"; name: string; message: string };

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}


function toError(reply: Exclude<Reply, { kind: "ok" }>, maxPages: number): PdfError {
  switch (reply.kind) {
    case "too_many_pages":
      return new PdfError("too_many_pages", `The PDF has ${reply.pages} pages; at most ${maxPages} are accepted.`, { pages: reply.pages, maxPages });
    case "unavailable":
      return new PdfError("unavailable", `PDF reading is not available on this server: ${reply.message}`);
    case "error":
      if (reply.name === "PasswordException") return new PdfError("encrypted", "The PDF is encrypted or password-protected; send it unlocked.");
      return new PdfError("unreadable", `The PDF could not be read: ${reply.message}`);
  }
}

function runWorker(bytes: Uint8Array, maxPages: number, timeoutMs: number): Promise<PdfText> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // Cloning a view clones its whole buffer: send only the PDF's bytes.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes: own, maxPages },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      // What pdf.js prints about a broken file is not the server's log: read and dropped.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new PdfError("too_slow", `The PDF took longer than ${timeoutMs} ms to read.`, { timeoutMs }))),
      timeoutMs,
    );
    worker.on("message", (reply: Reply) =>
      finish(() => {
        if (reply.kind !== "ok") reject(toError(reply, maxPages));
        else resolve({ pages: reply.pages, pageTexts: reply.pageTexts.map(storableText) });
      }),
    );
    // An error event is the worker dying: out of heap (a bomb), or a crash inside pdf.js.
    worker.on("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new PdfError("too_large", "The PDF needs more memory to read than a document may use.")
            : new PdfError("unreadable", `The PDF could not be read: ${error.message}`),
        ),
      ),
    );
    worker.on("exit", (code) => finish(() => reject(new PdfError("unreadable", `The PDF reader stopped (exit code ${code}).`))));
  });
}

/**
 * The text of each page of a PDF, read on a worker thread. Throws PdfError: not a PDF, over
 * MAX_PDF_BYTES or `maxPages`, encrypted, unparseable, over the time budget, or (the one
 * server-side reason) unpdf missing. The caller maps `problem` to its answer.
 */
export async function readPdf(bytes: Uint8Array, options: ReadPdfOptions = {}): Promise<PdfText> {
  const maxPages = options.maxPages ?? MAX_PDF_PAGES;
  const timeoutMs = options.timeoutMs ?? PDF_TIME_BUDGET_MS;
  if (bytes.length > MAX_PDF_BYTES) {
    throw new PdfError("too_large", `The PDF is ${bytes.length} bytes; at most ${MAX_PDF_BYTES} are accepted.`, { bytes: bytes.length, maxBytes: MAX_PDF_BYTES });
  }
  if (!looksLikePdf(bytes)) throw new PdfError("not_pdf", "The document is not a PDF (no %PDF- header).");
  const release = await slot();
  try {
    return await runWorker(bytes, maxPages, timeoutMs);
  } finally {
    release();
  }
}
