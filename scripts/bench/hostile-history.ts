// Issue 29, point 5: a long history resent through the drop-in to a fresh session. The real
// Anthropic SDK calls the route handler in this process (as scripts/bench/drop-in.ts does)
// against the fake Anthropic API; a timer measures how long the event loop is held meanwhile,
// which is how long a health check on this instance would have waited.
//
//   npx tsx --conditions=react-server scripts/bench/hostile-history.ts [sizes, default 1000,3000]
//
// Measured on a shared 2-core machine (two runs each): 1,000 messages 1.1-1.3 s, longest stall
// 67-79 ms; 3,000 messages 3.1-3.5 s, longest stall 79-97 ms. Before the indexer's short
// transactions, the sliced compaction and a timer's turn before each PGlite transaction:
// 1,000 in 1.4-2.4 s, stall 82-512 ms; 3,000 in 3.6-6.3 s, stall 0.56-1.06 s.
import Anthropic from "@anthropic-ai/sdk";
import { performance } from "node:perf_hooks";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import { openEmbedded, setDb, type Database } from "@/lib/db";
import { warmTokenizer } from "@/lib/tokens/tokenizer";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { stallDuring, STALL_TARGET_MS } from "./hostile";
import { fmtInt, fmtMs, round3, table } from "./report";
import { withEnv } from "./stats";

const MODEL = "claude-haiku-4-5";
const BASE = "http://127.0.0.1:3000/api/anthropic";
const TOOL = { name: "read_file", description: "Reads a file.", input_schema: { type: "object" as const, properties: { path: { type: "string" } } } };

export interface HistoryRun {
  messages: number;
  /** The request's wall time, from the SDK's call to its answer. */
  ms: number;
  /** The longest the event loop was held during it. */
  maxStallMs: number;
  /** 200, or the status it was refused with. */
  status: number;
  /** threadkeeper-history of the answer (imported, …); null when refused. */
  history: string | null;
}

const WORDS = "the parser keeps a cursor into the buffer and the scheduler retries with backoff while the exporter flushes each batch to disk".split(" ");

/** Deterministic prose of `chars` characters or so. */
function prose(chars: number, seed: number): string {
  const out: string[] = [];
  let len = 0;
  for (let i = 0; len < chars; i++) {
    const w = WORDS[(i * 7 + seed * 13) % WORDS.length];
    out.push(w);
    len += w.length + 1;
  }
  return `${seed}: ${out.join(" ")}`;
}

/**
 * A conversation of `n` messages ending with the user's, alternating user and assistant with
 * texts of 50 to 500 characters; about every tenth exchange is a call of the caller's tool and
 * its result.
 */
export function longHistory(n: number, salt = 0): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (let i = 0; i < n; i++) {
    const len = 50 + ((i * 137 + salt) % 450);
    const user = (n - 1 - i) % 2 === 0;
    if (!user && (i % 20 === 1 || i % 20 === 2) && i + 2 < n) {
      const id = `toolu_${salt}_${i}`;
      out.push({ role: "assistant", content: [{ type: "text", text: prose(len, i) }, { type: "tool_use", id, name: TOOL.name, input: { path: `src/f${i}.ts` } }] });
      out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: prose(len, i + 1) }] });
      i++;
      continue;
    }
    out.push({ role: user ? "user" : "assistant", content: prose(len, i + salt) });
  }
  return out;
}

/** One drop-in request with an `n`-message history to a new session, on the database already set. */
export async function resendHistory(n: number, salt = 0): Promise<HistoryRun> {
  const client = new Anthropic({ apiKey: "local", baseURL: BASE, maxRetries: 0, fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined) });
  const messages = longHistory(n, salt);
  const t0 = performance.now();
  const { value, stallMs: maxStallMs } = await stallDuring(async () => {
    try {
      const res = await client.messages.create({ model: MODEL, max_tokens: 256, tools: [TOOL], messages }).withResponse();
      return { status: 200, history: res.response.headers.get("threadkeeper-history") };
    } catch (err) {
      if (err instanceof Anthropic.APIError && typeof err.status === "number") return { status: err.status, history: null };
      throw err;
    }
  });
  return { messages: n, ms: performance.now() - t0, maxStallMs, ...value };
}

/** The scenario on its own in-memory PGlite and fake API, for each size. */
export async function benchHostileHistory(sizes: readonly number[] = [1_000, 3_000]): Promise<HistoryRun[]> {
  const fake = await startFakeAnthropic();
  const db: Database = await openEmbedded("memory://");
  setDb(db);
  // The server loads the token counter's tables at startup (instrumentation.ts), not in a request.
  warmTokenizer();
  try {
    return await withEnv(
      { ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: fake.url, THREADKEEPER_MODEL: MODEL, THREADKEEPER_MAX_RETRIES: "0", THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0", THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0" },
      async () => {
        const runs: HistoryRun[] = [];
        for (const [i, n] of sizes.entries()) runs.push(await resendHistory(n, i));
        return runs;
      },
    );
  } finally {
    setDb(undefined);
    await db.close();
    await fake.close();
  }
}

export function printHostileHistory(runs: readonly HistoryRun[]): void {
  console.log(`\nA long history resent through the drop-in to a new session (in process, in-memory PGlite): the request and the longest event-loop stall during it; target: under ${STALL_TARGET_MS} ms.`);
  const rows = runs.map((r) => [fmtInt(r.messages), `${r.status} ${r.history ?? ""}`.trim(), fmtMs(r.ms), fmtMs(r.maxStallMs), r.maxStallMs < STALL_TARGET_MS ? "yes" : "NO"]);
  console.log(table(["messages", "answer", "time", "longest stall", "met"], rows));
}

export function hostileHistoryJson(runs: readonly HistoryRun[]) {
  return runs.map((r) => ({ messages: r.messages, status: r.status, history: r.history, ms: round3(r.ms), max_stall_ms: round3(r.maxStallMs) }));
}

if (process.argv[1]?.endsWith("hostile-history.ts")) {
  const sizes = (process.argv[2] ?? "1000,3000").split(",").map(Number);
  benchHostileHistory(sizes).then(
    (runs) => {
      for (const r of runs) console.log(`${r.messages} messages: ${r.status} ${r.history ?? ""} in ${r.ms.toFixed(0)} ms, longest stall ${r.maxStallMs.toFixed(0)} ms`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
