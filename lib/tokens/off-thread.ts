// Counting a large input on a worker thread. Counting is linear now (plan.ts), but a 1 MB body
// of many blocks still costs hundreds of milliseconds of BPE, and on the event loop that is
// every other request on the instance waiting. It is computation, not I/O, so it sits with the
// tokenizer; it is marked server-only because browser code may import layer 1.
//
// The worker is one inline CommonJS source (eval): Next.js bundles lib/ but leaves
// @dqbd/tiktoken in node_modules (serverExternalPackages), and an inline source needs no file
// of its own to be traced or resolved at run time. It requires tiktoken from the working
// directory, which is the app's root in `next dev`/`next start` and the standalone server's
// folder in the image. The main thread still plans the pieces, so both threads count alike.
import "server-only";
import { Worker } from "node:worker_threads";
import type { ContentBlock, Role } from "@/lib/contract/messages";
import { log } from "@/lib/log";
import type { DocumentFacts } from "./media";
import { countPlan, type CountPlan } from "./plan";
import { messageParts, partsTokens, scaledCount, type CountParts } from "./tokenizer";

/** From this many characters in one call, counting leaves the event loop (up to ~70 ms of BPE here). */
export const OFF_THREAD_FROM = 32 * 1024;

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { get_encoding } = require("@dqbd/tiktoken");
const encoder = get_encoding("cl100k_base");
parentPort.on("message", ({ id, texts }) => {
  try {
    const raw = texts.map((pieces) => pieces.reduce((n, piece) => n + encoder.encode_ordinary(piece).length, 0));
    parentPort.postMessage({ id, raw });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface Reply {
  id: number;
  raw?: number[];
  error?: string;
}

interface Pending {
  resolve: (raw: number[]) => void;
  reject: (error: Error) => void;
}

interface Counter {
  worker: Worker;
  pending: Map<number, Pending>;
}

let counter: Counter | null = null;
let nextId = 0;
/** Set when the worker cannot run here at all (it failed before answering once). */
let unavailable = false;

function startCounter(): Counter {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const c: Counter = { worker, pending: new Map() };
  let answered = false;
  const fail = (error: Error) => {
    if (counter === c) counter = null;
    for (const p of c.pending.values()) p.reject(error);
    c.pending.clear();
  };
  worker.on("message", (reply: Reply) => {
    answered = true;
    const p = c.pending.get(reply.id);
    if (!p) return;
    c.pending.delete(reply.id);
    if (c.pending.size === 0) worker.unref();
    if (reply.raw) p.resolve(reply.raw);
    else p.reject(new Error(reply.error ?? "token worker: empty reply"));
  });
  worker.on("error", (error) => {
    // Failing before its first answer means it cannot load here (no tiktoken from the working
    // directory): stop trying, and count on the main thread as before.
    if (!answered) unavailable = true;
    log.warn("token counting worker failed; counting on the main thread", error);
    fail(error);
  });
  worker.on("exit", (code) => fail(new Error(`token worker exited with code ${code}`)));
  // Idle, it must not keep a script or a test process alive; ref'd while a count is pending.
  worker.unref();
  return c;
}

function countOnWorker(texts: string[][]): Promise<number[]> {
  counter ??= startCounter();
  const { worker, pending } = counter;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    if (pending.size === 0) worker.ref();
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, texts });
  });
}

/** Planned characters between yields: planning runs on the event loop, ~1.5 ms per 100 KB here. */
const PLAN_SLICE = 128 * 1024;

/** Raw counts of the texts' plans, planned a slice at a time and each slice sent as it is ready. */
async function rawOnWorker(plans: CountPlan[], texts: readonly string[]): Promise<number[]> {
  const batches: Promise<number[]>[] = [];
  let batch: string[][] = [];
  let chars = 0;
  for (const text of texts) {
    const plan = countPlan(text);
    plans.push(plan);
    batch.push(plan.pieces);
    chars += text.length;
    if (chars >= PLAN_SLICE) {
      batches.push(countOnWorker(batch));
      batch = [];
      chars = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (batch.length) batches.push(countOnWorker(batch));
  return (await Promise.all(batches)).flat();
}

/** The estimate of each input (as partsTokens counts it), off the event loop when it is large. */
export async function countPartsOffThread(inputs: readonly CountParts[]): Promise<number[]> {
  let chars = 0;
  for (const parts of inputs) for (const text of parts.texts) chars += text.length;
  if (chars < OFF_THREAD_FROM || unavailable) return inputs.map(partsTokens);
  const texts = inputs.flatMap((parts) => parts.texts.filter((t) => t.length > 0));
  const plans: CountPlan[] = [];
  let raw: number[];
  try {
    raw = await rawOnWorker(plans, texts);
  } catch {
    return inputs.map(partsTokens);
  }
  let i = 0;
  return inputs.map((parts) => {
    let total = parts.fixed;
    for (const text of parts.texts) {
      if (text.length === 0) continue;
      total += scaledCount(raw[i], plans[i].scale);
      i++;
    }
    return total;
  });
}

/** estimateMessageTokens for each message, off the event loop when they are large together. */
export function countMessagesOffThread(messages: readonly { role: Role; content: ContentBlock[] }[]): Promise<number[]> {
  return countPartsOffThread(messages.map((m) => messageParts(m.role, m.content)));
}

export async function countMessageOffThread(role: Role, content: ContentBlock[]): Promise<number> {
  const [n] = await countMessagesOffThread([{ role, content }]);
  return n;
}

/** pdfFacts (documents.ts) with the pages counted off the event loop: 600 pages is megabytes of text. */
export async function pdfFactsOffThread(pageTexts: readonly string[]): Promise<DocumentFacts> {
  const counts = await countPartsOffThread(pageTexts.map((text) => ({ fixed: 0, texts: [text] })));
  return { kind: "pdf", pages: pageTexts.length, textTokens: counts.reduce((sum, n) => sum + n, 0) };
}

/** Stops the worker (tests; a process exit needs nothing, the worker is unref'd when idle). */
export async function stopTokenWorker(): Promise<void> {
  const c = counter;
  counter = null;
  unavailable = false;
  if (c) await c.worker.terminate();
}
