// The usage dashboard's queries for a heavy user, on its own in-memory PGlite: 1M recorded
// calls over a year across a few thousand sessions (one of them 5,000 turns long), their
// rollups and compactions, beside another user's 200,000 calls. Each query is timed as the
// route runs it (the library call in its withUser transaction): over the last 30 days and the
// last year as the dashboard asks (whole UTC days up to now: rollups only), over the same
// spans starting and ending mid-day (the worst case: two partial days of calls read), and a
// long session's turn view.
//
// Environment (defaults in brackets): BENCH_USAGE_CALLS [1000000], BENCH_USAGE_SESSIONS [3000],
// BENCH_USAGE_OTHER_CALLS [200000].
import os from "node:os";
import { performance } from "node:perf_hooks";
import { openEmbedded, setDb, type Database } from "@/lib/db";
import { usageReport, usageSummary } from "@/lib/usage";
import type { UsageQuery } from "@/lib/contract/usage-query";
import { fmtInt, fmtMs, statJson, table } from "./report";
import { intEnv, summarize, type MeasureOptions, type Stat } from "./stats";

const TARGET_MS = 50;
const DAY_MS = 86_400_000;
const SPAN_DAYS = 365;
const HEAVY = "20000000-0000-4000-8000-000000000001";
const OTHER = "20000000-0000-4000-8000-000000000002";
/** Every 200th call of the heavy user belongs to one long session (5,000 turns at 1M calls). */
const BIG_EVERY = 200;
const MODELS = ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-5-5"];

const uuidOf = (prefix: string, n: number) => `${prefix}-4000-8000-${String(n).padStart(12, "0")}`;
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export interface UsageBenchResult {
  facts: {
    calls: number;
    otherCalls: number;
    sessions: number;
    deletedSessions: number;
    bigSessionCalls: number;
    bigSessionTurns: number;
    rollupRows: number;
    compactions: number;
    seedS: number;
  };
  ops: { key: string; operation: string; range: string; rows: number; stat: Stat; cpu: Stat }[];
  /** 1-minute load average before and after the measurements (other processes skew wall times). */
  load: [number, number];
}

/**
 * Wall time as `measure` takes it, and this process's CPU time for the same runs: PGlite runs
 * in the process, so CPU time is the work done whatever else the machine is busy with.
 */
async function measureCpu<T>(fn: () => Promise<T>, opts: MeasureOptions): Promise<{ stat: Stat; cpu: Stat; last: T }> {
  for (let i = 0; i < opts.warmups; i++) await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  let last!: T;
  for (let r = 0; r < opts.runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = await fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { stat: summarize(wall), cpu: summarize(cpu), last };
}

/**
 * Calls i in [lo, hi) of `count` spread evenly over the year before `end`. Sessions run a few
 * hundred calls each, three at a time; a fixed share goes to the long session.
 */
async function insertCalls(
  db: Database,
  user: string,
  sessions: string[],
  big: string | null,
  count: number,
  lo: number,
  hi: number,
  end: Date,
): Promise<void> {
  const perSession = Math.max(1, Math.floor(count / sessions.length));
  await db.transaction((tx) =>
    tx.query(
      `insert into llm_calls (user_id, session_id, turn_seq, kind, model, input_tokens, output_tokens,
         cache_creation_input_tokens, cache_read_input_tokens, cost_usd, estimated_input_tokens, window_start_turn,
         capacity_tokens, cache_breakpoints, created_at)
       select $1, c.session_id, c.turn_seq, c.kind, c.model, c.input, c.output, c.write, c.read,
         (c.input * 3 + c.write * 3.75 + c.read * 0.3 + c.output * 15) / 1e6,
         case when c.kind = 'chat' then round((c.input + c.write + c.read) * (0.9 + (c.h % 200) / 1000.0)) end,
         case when c.kind = 'chat' then greatest(1, c.turn_seq - 40 - (c.turn_seq % 60)) end,
         case when c.kind = 'chat' then 136000 end,
         case when c.kind = 'chat' then 3 else 0 end,
         c.at
       from (
         select i, h, case when big then $3::uuid else ($2::uuid[])[1 + sidx] end as session_id,
           case when big then i / ${BIG_EVERY} + 1 else (i % $4) / 3 + 1 end as turn_seq, kind,
           -- A session chats with one model; summaries and titles are Haiku's.
           case when kind = 'chat' then ($7::text[])[1 + sidx % cardinality($7::text[])] else 'claude-haiku-4-5' end as model,
           200 + h % 3000 as input, 50 + h % 1500 as output, (h % 7) * 400 as write, (h % 11) * 9000 as read,
           $6::timestamptz - make_interval(secs => ($5 - i - 0.5) * ${(SPAN_DAYS * DAY_MS) / 1000}::float8 / $5) as at
         from (
           select i, h, $3::uuid is not null and i % ${BIG_EVERY} = 7 as big,
             ((i / $4) + (i % 3)) % cardinality($2::uuid[]) as sidx,
             case when i % 20 = 0 then 'summary' when i % 97 = 1 then 'title' else 'chat' end as kind
           from (select i, (i::bigint * 2654435761) % 1000003 as h from generate_series($8::int, $9::int - 1) i) g
         ) g
       ) c`,
      [user, sessions, big, perSession, count, end, MODELS, lo, hi],
    ),
  );
}

async function insertSessions(db: Database, user: string, ids: string[], end: Date): Promise<void> {
  await db.transaction((tx) =>
    tx.query(
      `insert into sessions (id, user_id, title, model, created_at, updated_at)
       select t.id, $1, 'Bench session ' || t.n, 'claude-sonnet-4-5',
         $3::timestamptz - make_interval(days => (${SPAN_DAYS} - t.n * ${SPAN_DAYS} / cardinality($2::uuid[]))::int), $3::timestamptz
       from unnest($2::uuid[]) with ordinality as t(id, n)`,
      [user, ids, end],
    ),
  );
}

/** Two compactions per session at its first calls' times, and one every 100 turns of the long session. */
async function insertCompactions(db: Database, user: string, big: string): Promise<void> {
  await db.transaction((tx) =>
    tx.query(
      `insert into compaction_logs (session_id, user_id, trigger, method, from_turn, through_turn, at_seq, at_turn,
         prev_window_start_turn, summary, pre_tokens, post_tokens, reduction_percent, retention_rate, messages_condensed,
         duration_ms, model, created_at)
       select c.session_id, $1, 'auto', case when k % 5 = 0 then 'extractive' else 'llm' end, 1, c.turn_seq - 5,
         c.turn_seq * 2, c.turn_seq, 1, 'summary', 110000 + k % 20000, 40000 + k % 9000, 60, 0.9 + (k % 10) / 100.0,
         c.turn_seq, 900, 'claude-haiku-4-5', c.created_at + interval '1 second'
       from (
         select session_id, turn_seq, min(created_at) as created_at, row_number() over () as k
         from llm_calls
         where user_id = $1 and kind = 'chat' and session_id in (select id from sessions where user_id = $1)
           and ((session_id <> $2 and turn_seq in (30, 80)) or (session_id = $2 and turn_seq % 100 = 0))
         group by session_id, turn_seq
       ) c`,
      [user, big],
    ),
  );
}

async function seedUser(
  db: Database,
  user: string,
  prefix: string,
  calls: number,
  sessionCount: number,
  end: Date,
  withBig: boolean,
): Promise<{ sessions: string[]; big: string | null; deleted: number }> {
  await db.transaction((tx) => tx.query(`insert into auth.users (id, email) values ($1::uuid, $1::text || '@bench.local')`, [user]));
  const sessions = Array.from({ length: sessionCount }, (_, n) => uuidOf(prefix, n));
  const big = withBig ? uuidOf(prefix, 999_999) : null;
  // One session in twenty was deleted since: its calls stay, its row and compactions do not.
  const kept = sessions.filter((_, n) => n % 20 !== 3);
  await insertSessions(db, user, big ? [...kept, big] : kept, end);
  const BATCH = 100_000;
  for (let lo = 0; lo < calls; lo += BATCH) await insertCalls(db, user, sessions, big, calls, lo, Math.min(calls, lo + BATCH), end);
  if (big) await insertCompactions(db, user, big);
  return { sessions, big, deleted: sessions.length - kept.length };
}

/** Seeds both users (the heavy one ends at `end`) and vacuums, as the app's schedule would. */
export async function seedUsage(db: Database, calls: number, sessionCount: number, otherCalls: number, end: Date) {
  const heavy = await seedUser(db, HEAVY, "21000000-0000", calls, sessionCount, end, true);
  await seedUser(db, OTHER, "22000000-0000", otherCalls, Math.max(1, Math.round(sessionCount / 5)), end, false);
  // PGlite runs no autovacuum; the app vacuums analyze on a schedule (lib/db/maintenance.ts).
  await db.execAutocommit("vacuum analyze");
  return { heavyUser: HEAVY, otherUser: OTHER, ...heavy };
}

export async function benchUsage(restore: Database | undefined, opts: MeasureOptions): Promise<UsageBenchResult> {
  const calls = intEnv("BENCH_USAGE_CALLS", 1_000_000);
  const sessionCount = intEnv("BENCH_USAGE_SESSIONS", 3_000);
  const otherCalls = intEnv("BENCH_USAGE_OTHER_CALLS", 200_000);
  const db = await openEmbedded("memory://");
  setDb(db);
  try {
    const end = new Date();
    console.log(`\nUsage: seeding ${fmtInt(calls)} calls of one user over ${SPAN_DAYS} days, ${fmtInt(otherCalls)} of another …`);
    const t0 = performance.now();
    const heavy = await seedUsage(db, calls, sessionCount, otherCalls, end);
    const seedMs = performance.now() - t0;
    const [facts] = await db.transaction((tx) =>
      tx.query<{ rollup: number; compactions: number; big_calls: number; big_turns: number }>(
        `select (select count(*) from llm_usage_daily where user_id = $1)::int as rollup,
           (select count(*) from compaction_logs where user_id = $1)::int as compactions,
           (select count(*) from llm_calls where session_id = $2)::int as big_calls,
           (select count(distinct turn_seq) from llm_calls where session_id = $2)::int as big_turns`,
        [HEAVY, heavy.big],
      ),
    );
    console.log(`  seeded in ${s1(seedMs)}: ${fmtInt(facts.rollup)} rollup rows, ${fmtInt(facts.compactions)} compactions`);

    const loadBefore = os.loadavg()[0];
    // As the dashboard asks: whole UTC days up to now (no `to`), so no call is read, only rollups.
    // And the worst case: both ends inside a day, whose calls are read one by one.
    const midnight = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
    const to = new Date(end.getTime() + 1000);
    const ranges: { label: string; from: Date; to?: Date }[] = [
      { label: "30 days", from: new Date(midnight - 29 * DAY_MS) },
      { label: "1 year", from: new Date(midnight - (SPAN_DAYS - 1) * DAY_MS) },
      { label: "30 days, mid-day ends", from: new Date(end.getTime() - 30 * DAY_MS), to },
      { label: "1 year, mid-day ends", from: new Date(end.getTime() - SPAN_DAYS * DAY_MS), to },
    ];
    const ops: UsageBenchResult["ops"] = [];
    const report = (q: Partial<UsageQuery>) => () => usageReport(HEAVY, { group_by: "day", limit: 1000, ...q });
    for (const r of ranges) {
      for (const group_by of ["day", "session", "model"] as const) {
        const { stat, cpu, last } = await measureCpu(report({ group_by, from: r.from, to: r.to }), opts);
        ops.push({ key: `${group_by}_${r.label}`, operation: `group_by=${group_by}`, range: r.label, rows: last.rows.length, stat, cpu });
      }
      const top = await measureCpu(report({ group_by: "session", from: r.from, to: r.to, limit: 10 }), opts);
      ops.push({ key: `top10_${r.label}`, operation: "group_by=session&limit=10", range: r.label, rows: top.last.rows.length, stat: top.stat, cpu: top.cpu });
      const sum = await measureCpu(() => usageSummary(HEAVY, { from: r.from, to: r.to, limit: 10, compaction_limit: 200 }), opts);
      ops.push({ key: `summary_${r.label}`, operation: "summary (days, top 10, compactions)", range: r.label, rows: sum.last.days.length, stat: sum.stat, cpu: sum.cpu });
    }
    const session_id = heavy.big ?? undefined;
    const dash = await measureCpu(report({ group_by: "turn", session_id, limit: 500 }), opts);
    ops.push({ key: "turns_big_500", operation: `group_by=turn, ${fmtInt(facts.big_turns)}-turn session, latest 500 (the dashboard)`, range: "all", rows: dash.last.rows.length, stat: dash.stat, cpu: dash.cpu });
    const turns = await measureCpu(report({ group_by: "turn", session_id }), opts);
    ops.push({ key: "turns_big", operation: "group_by=turn, same, latest 1,000 (the default)", range: "all", rows: turns.last.rows.length, stat: turns.stat, cpu: turns.cpu });
    const turnsAll = await measureCpu(report({ group_by: "turn", session_id, limit: 10_000 }), opts);
    ops.push({ key: "turns_big_all", operation: "group_by=turn, every turn (limit=10000)", range: "all", rows: turnsAll.last.rows.length, stat: turnsAll.stat, cpu: turnsAll.cpu });
    // A small session's turns, reached through the same session index.
    const small = await measureCpu(report({ group_by: "turn", session_id: heavy.sessions[1] }), opts);
    ops.push({ key: "turns_small", operation: "group_by=turn, a ~330-call session", range: "all", rows: small.last.rows.length, stat: small.stat, cpu: small.cpu });
    // Sanity: the other user's calls never count (the figures would be off, not just slower).
    const otherTotal = (await usageReport(OTHER, { group_by: "model", limit: 10, from: ranges[3].from, to })).totals.requests;
    if (otherTotal !== otherCalls) throw new Error(`usage bench: the other user's year shows ${otherTotal} calls, not ${otherCalls}`);

    return {
      load: [loadBefore, os.loadavg()[0]],
      facts: {
        calls,
        otherCalls,
        sessions: sessionCount + 1,
        deletedSessions: heavy.deleted,
        bigSessionCalls: facts.big_calls,
        bigSessionTurns: facts.big_turns,
        rollupRows: facts.rollup,
        compactions: facts.compactions,
        seedS: Math.round(seedMs / 100) / 10,
      },
      ops,
    };
  } finally {
    setDb(restore);
    await db.close();
  }
}

export function printUsage(r: UsageBenchResult, opts: MeasureOptions): void {
  const f = r.facts;
  console.log(
    `\nUsage dashboard: ${fmtInt(f.calls)} calls of one user over a year (${fmtInt(f.sessions)} sessions, ${fmtInt(f.deletedSessions)} deleted; ` +
      `${fmtInt(f.rollupRows)} rollup rows; ${fmtInt(f.compactions)} compactions) beside ${fmtInt(f.otherCalls)} of another user. ` +
      `Medians (p95) over ${opts.runs} runs after ${opts.warmups} warm-ups. Ranges of whole UTC days up to now (as the dashboard asks) ` +
      `read rollups only; "mid-day ends" start and end inside a day, whose calls (about ${fmtInt(Math.round(f.calls / SPAN_DAYS))} a day) are read. ` +
      `CPU is this process's CPU time per query (PGlite runs in it): the work done, whatever else the machine was doing ` +
      `(1-minute load average ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after, on ${os.cpus().length} CPUs).`,
  );
  console.log(
    table(
      ["query", "range", "rows", "p50", "p95", "CPU p50", `target (p50 < ${TARGET_MS} ms)`],
      r.ops.map((o) => [
        o.operation,
        o.range,
        fmtInt(o.rows),
        fmtMs(o.stat.medianMs),
        fmtMs(o.stat.p95Ms),
        fmtMs(o.cpu.medianMs),
        o.stat.medianMs < TARGET_MS ? "met" : "MISSED",
      ]),
    ),
  );
}

export function usageJson(r: UsageBenchResult) {
  return {
    facts: r.facts,
    target_ms: TARGET_MS,
    load: r.load,
    ops: r.ops.map((o) => ({
      key: o.key,
      operation: o.operation,
      range: o.range,
      rows: o.rows,
      ...statJson(o.stat),
      cpu_median_ms: statJson(o.cpu).median_ms,
      met: o.stat.medianMs < TARGET_MS,
    })),
  };
}
