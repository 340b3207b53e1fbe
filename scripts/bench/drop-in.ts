// The drop-in Messages API (issue 21): what /api/anthropic adds to a request over calling the
// upstream directly, both with the real Anthropic SDK as the client against the fake API; and
// what resending a 200-turn history costs over sending only the new message (the history is
// lined up with the session by content). Sessions run on an in-memory PGlite.
import Anthropic from "@anthropic-ai/sdk";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as sendRoute from "@/app/api/session/[id]/messages/route";
import { LOCAL_USER_ID } from "@/lib/db";
import { createSession } from "@/lib/operations/sessions";
import postgres from "postgres";
import { prepare, setDb, type Database, type Tx } from "@/lib/db";
import { fromPostgres } from "@/lib/db/driver";
import { applyFixture, missingPrerequisite, startCluster, SUPERUSER } from "../../tests/pg/cluster";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { fmtMs, statJson, table } from "./report";
import { performance } from "node:perf_hooks";
import { measure, summarize, type MeasureOptions, type Stat, withEnv } from "./stats";

export const MODEL = "claude-haiku-4-5";
const HISTORY_TURNS = Number(process.env.BENCH_DROPIN_TURNS ?? 200);
const BASE = "http://127.0.0.1:3000/api/anthropic";
/** The app's login role on the cluster, as in tests/pg. */
const APP_ROLE = "postgres";

export interface DropInRun {
  engine: "PGlite" | "PostgreSQL 15";
  direct: Stat;
  dropIn: Stat;
  /** Threadkeeper's own send of the same message (REST, JSON): the turn without the drop-in's translation. */
  rest: Stat;
  /** The database work of one such send, its follow-up included: statements and transactions. */
  perTurn: { statements: number; transactions: number };
  /** The same of one drop-in request in its session (counted in runs of their own, after the timed ones). */
  dropInPerTurn: { statements: number; transactions: number };
  newOnly: Stat;
  resent: Stat;
  turns: number;
}

/** One distinct message per call, so no cache or recognition answers it for free. */
export const sentence = (i: number) => `Turn ${i}: we went over the ${["parser", "scheduler", "cache", "exporter"][i % 4]} and its edge cases in some detail. `;

/** The database, counting what runs through it. */
function counting(db: Database) {
  const counts = { statements: 0, transactions: 0 };
  const wrapped: Database = {
    ...db,
    transaction: <T>(fn: (tx: Tx) => Promise<T>) => {
      counts.transactions++;
      return db.transaction((tx) =>
        fn({
          query: <R>(sql: string, params?: unknown[]) => {
            counts.statements++;
            return tx.query<R>(sql, params);
          },
          exec: (sql: string) => {
            counts.statements++;
            return tx.exec(sql);
          },
        }),
      );
    },
  };
  return {
    db: wrapped,
    get statements() {
      return counts.statements;
    },
    get transactions() {
      return counts.transactions;
    },
    reset: () => Object.assign(counts, { statements: 0, transactions: 0 }),
  };
}

/** The statements and transactions per request of `runs` requests, their follow-ups included. */
async function countedRuns(db: Database, runs: number, request: (i: number) => Promise<unknown>) {
  const counted = counting(db);
  setDb(counted.db);
  try {
    for (let i = 0; i < runs; i++) await request(i);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    setDb(db);
  }
  return { statements: counted.statements / runs, transactions: counted.transactions / runs };
}

export interface DropInBenchResult {
  runs: DropInRun[];
}

/**
 * On the embedded PGlite (the default install) and, when its binaries are here, on a throwaway
 * real PostgreSQL 15 cluster (tests/pg/cluster.ts: the app's migrations, Supabase-like roles).
 */
export async function benchDropIn(db: Database, opts: MeasureOptions): Promise<DropInBenchResult> {
  const runs = [await measureOn("PGlite", db, opts)];
  if (missingPrerequisite() === null) {
    const cluster = await startCluster();
    const pg = fromPostgres(postgres(cluster.url(APP_ROLE), { max: 4, onnotice: () => {} }));
    try {
      await applyFixture(cluster.url(SUPERUSER));
      await prepare(pg, false);
      setDb(pg);
      runs.push(await measureOn("PostgreSQL 15", pg, opts));
    } finally {
      setDb(db);
      await pg.close();
      await cluster.stop();
    }
  }
  return { runs };
}

/** Threadkeeper pointed at the fake API, with nothing (retries, rate limits) between a request and its figure. */
export const upstreamEnv = (url: string) => ({
  ANTHROPIC_API_KEY: "bench",
  ANTHROPIC_BASE_URL: url,
  THREADKEEPER_MODEL: MODEL,
  THREADKEEPER_MAX_RETRIES: "0",
  THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0",
  THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0",
});

async function measureOn(engine: DropInRun["engine"], db: Database, opts: MeasureOptions): Promise<DropInRun> {
  const fake = await startFakeAnthropic();
  try {
    return await withEnv(
      upstreamEnv(fake.url),
      async () => {
        const direct = new Anthropic({ apiKey: "bench", baseURL: fake.url, maxRetries: 0 });
        const dropIn = (session?: string) =>
          new Anthropic({
            apiKey: "local",
            baseURL: BASE,
            maxRetries: 0,
            fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined),
            ...(session ? { defaultHeaders: { "threadkeeper-session-id": session } } : {}),
          });
        const ask = (i: number) => ({ model: MODEL, max_tokens: 256, messages: [{ role: "user" as const, content: sentence(i) }] });

        const first = await dropIn().messages.create(ask(0)).withResponse();
        const session = first.response.headers.get("threadkeeper-session-id") ?? "";
        const inSession = dropIn(session);
        // Interleaved, request by request, so both see the same state of a shared machine.
        const pair = { direct: [] as number[], dropIn: [] as number[] };
        for (let i = 0; i < opts.warmups + opts.runs; i++) {
          const t0 = performance.now();
          await direct.messages.create(ask(i));
          const t1 = performance.now();
          await inSession.messages.create(ask(i + 1));
          if (i < opts.warmups) continue;
          pair.direct.push(t1 - t0);
          pair.dropIn.push(performance.now() - t1);
        }
        const directStat = summarize(pair.direct);
        const dropInStat = summarize(pair.dropIn);
        const dropInPerTurn = await countedRuns(db, opts.runs, (i) => inSession.messages.create(ask(opts.warmups + opts.runs + 1 + i)));

        const own = await createSession(LOCAL_USER_ID, { model: MODEL }, "");
        const send = (i: number) =>
          sendRoute.POST(
            new Request(`http://127.0.0.1:3000/api/session/${own.id}/messages`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json" },
              body: JSON.stringify({ content: sentence(i) }),
            }),
            { params: Promise.resolve({ id: own.id }) },
          ).then(async (res) => {
            if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
          });
        const counted = counting(db);
        setDb(counted.db);
        let rest: Stat;
        try {
          for (let i = 0; i < opts.warmups; i++) await send(i);
          counted.reset();
          rest = (await measure((i) => send(opts.warmups + i), { warmups: 0, runs: opts.runs })).stat;
          // The last turn's follow-up (checkpoint, lease) is part of its work.
          await new Promise((r) => setTimeout(r, 300));
        } finally {
          setDb(db);
        }
        const perTurn = { statements: counted.statements / opts.runs, transactions: counted.transactions / opts.runs };

        // Two sessions of HISTORY_TURNS turns each, one sent only new messages, one its whole history.
        const seed = async () => {
          const history: Anthropic.MessageParam[] = [];
          let id = "";
          for (let t = 0; t < HISTORY_TURNS; t++) {
            history.push({ role: "user", content: sentence(t) });
            const res = await (id ? dropIn(id) : dropIn()).messages.create({ model: MODEL, max_tokens: 256, messages: history }).withResponse();
            id ||= res.response.headers.get("threadkeeper-session-id") ?? "";
            history.push({ role: "assistant", content: res.data.content });
          }
          return { client: dropIn(id), history };
        };
        const lone = await seed();
        const whole = await seed();
        // Interleaved, so both see the same state of the process and the database.
        const times = { newOnly: [] as number[], resent: [] as number[] };
        for (let i = 0; i < opts.warmups + opts.runs; i++) {
          const t0 = performance.now();
          await lone.client.messages.create(ask(HISTORY_TURNS + i));
          const t1 = performance.now();
          whole.history.push({ role: "user", content: sentence(HISTORY_TURNS + i) });
          const res = await whole.client.messages.create({ model: MODEL, max_tokens: 256, messages: whole.history }).withResponse();
          const t2 = performance.now();
          if (res.response.headers.get("threadkeeper-history") !== "matched") throw new Error(`history not matched: ${res.response.headers.get("threadkeeper-history")}`);
          whole.history.push({ role: "assistant", content: res.data.content });
          if (i < opts.warmups) continue;
          times.newOnly.push(t1 - t0);
          times.resent.push(t2 - t1);
        }
        const newOnly = summarize(times.newOnly);
        const resent = summarize(times.resent);
        return { engine, direct: directStat, dropIn: dropInStat, rest, perTurn, dropInPerTurn, newOnly, resent, turns: HISTORY_TURNS };
      },
    );
  } finally {
    await fake.close();
  }
}

/** A difference of medians, which may be negative. */
export const signed = (ms: number) => (ms < 0 ? `-${fmtMs(-ms)}` : fmtMs(ms));

export function printDropIn(r: DropInBenchResult): void {
  const first = r.runs[0];
  console.log(
    `\nDrop-in Messages API: the Anthropic SDK against the fake API, directly and through /api/anthropic, one of each in turn (medians (p95) over ${first.direct.runs} pairs).` +
      `\nThe drop-in runs a whole Threadkeeper turn; Threadkeeper's own send of the same message shows how much of the added time is the turn's (its database work counted).`,
  );
  const rows: string[][] = [];
  for (const run of r.runs) {
    const added = run.dropIn.medianMs - run.direct.medianMs;
    const resend = run.resent.medianMs - run.newOnly.medianMs;
    rows.push(
      [run.engine, "SDK -> fake API directly", fmtMs(run.direct.medianMs), fmtMs(run.direct.p95Ms), "", ""],
      [
        run.engine,
        `SDK -> /api/anthropic -> fake API (${run.dropInPerTurn.statements.toFixed(1)} statements, ${run.dropInPerTurn.transactions.toFixed(1)} transactions)`,
        fmtMs(run.dropIn.medianMs),
        fmtMs(run.dropIn.p95Ms),
        signed(added),
        `< 15 ms ${added < 15 ? "met" : "NOT MET"}`,
      ],
      [
        run.engine,
        `own send of it (${run.perTurn.statements.toFixed(1)} statements, ${run.perTurn.transactions.toFixed(1)} transactions)`,
        fmtMs(run.rest.medianMs),
        fmtMs(run.rest.p95Ms),
        signed(run.rest.medianMs - run.direct.medianMs),
        "",
      ],
      [run.engine, `${run.turns}-turn session, only the new message`, fmtMs(run.newOnly.medianMs), fmtMs(run.newOnly.p95Ms), "", ""],
      [run.engine, `${run.turns}-turn session, whole history resent`, fmtMs(run.resent.medianMs), fmtMs(run.resent.p95Ms), signed(resend), `< 5 ms ${resend < 5 ? "met" : "NOT MET"}`],
    );
  }
  console.log(table(["database", "request", "p50", "p95", "added (p50)", "target"], rows));
}

export function dropInJson(r: DropInBenchResult) {
  return r.runs.map((run) => ({
    engine: run.engine,
    direct: statJson(run.direct),
    drop_in: statJson(run.dropIn),
    added_ms: Math.round((run.dropIn.medianMs - run.direct.medianMs) * 100) / 100,
    own_send: statJson(run.rest),
    statements_per_turn: Math.round(run.perTurn.statements * 10) / 10,
    transactions_per_turn: Math.round(run.perTurn.transactions * 10) / 10,
    drop_in_statements: Math.round(run.dropInPerTurn.statements * 10) / 10,
    drop_in_transactions: Math.round(run.dropInPerTurn.transactions * 10) / 10,
    drop_in_over_own_send_ms: Math.round((run.dropIn.medianMs - run.rest.medianMs) * 100) / 100,
    history_turns: run.turns,
    new_only: statJson(run.newOnly),
    resent: statJson(run.resent),
    resend_added_ms: Math.round((run.resent.medianMs - run.newOnly.medianMs) * 100) / 100,
  }));
}
