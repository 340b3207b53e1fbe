// Load on the real send path (issue 22): two `next start` instances of the built app over one
// throwaway PostgreSQL 15 cluster (tests/pg), the fake Anthropic server answering at once, N
// sessions sending T ordinary turns each, all sessions at once, each turn to the other instance
// than the last. Reports turns/s, turn latency (p50/p95/p99), errors, the instances' RSS, every
// statement the database ran during the load (pg_stat_statements, background work included) and
// its transactions (pg_stat_database), both per turn, and checks that no message was lost or
// stored twice. Skips when PostgreSQL 15 or the built app (`npx next build`) is missing.
// BENCH_LOAD_USERS (one | many | both, the default) says whose the sessions are: one user's,
// through one key, or each its own user's; both are reported side by side, each with the lock
// wait per turn sampled from pg_stat_activity (scripts/bench/load-users.ts).
// BENCH_LOAD_SOAK_SECONDS turns it into a soak: the sessions send for that long instead, and each
// instance's RSS is sampled throughout (scripts/bench/load-soak.ts).
//
// The load runs BENCH_LOAD_RUNS times (3), each on a fresh cluster and fresh instances, and the
// median of each figure is reported with every run's, since one shared machine's runs spread.
//
// Environment: BENCH_LOAD_SESSIONS (20), BENCH_LOAD_TURNS (10), BENCH_LOAD_RUNS (3), BENCH_LOAD_USERS (both), BENCH_LOAD_SOAK_SECONDS (unset).
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import type { SendResultJson, SessionJson } from "@/lib/contract";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { api, startApp, type AppInstance } from "../../tests/pg/app";
import { applyFixture, missingPrerequisite, startCluster, SUPERUSER } from "../../tests/pg/cluster";
import { cpuLine, cpuPerTurn, cpuSnapshot, type CpuPerTurn } from "./load-cpu";
import { printSoak, rssMb, SOAK_SECONDS, SOAK_TURNS_PER_SESSION, soakJson, startRssSampler, userMessages, type SoakResult } from "./load-soak";
import { seedCallers, startLockSampler, usersModes, type LockWaits, type UsersMode } from "./load-users";
import { fmtInt, fmtMs, table } from "./report";
import { median, summarize, type Stat } from "./stats";

const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 20);
const TURNS = Number(process.env.BENCH_LOAD_TURNS ?? 10);
/** A soak is one long run. */
const RUNS = SOAK_SECONDS > 0 ? 1 : Math.max(1, Number(process.env.BENCH_LOAD_RUNS ?? 3));
/** The app's login role on the cluster, as in tests/pg. */
const APP_ROLE = "postgres";

export interface LoadBenchResult {
  users: UsersMode;
  sessions: number;
  turns: number;
  seconds: number;
  latency: Stat & { p99Ms: number };
  errors: number;
  /** Every statement, nested ones included. */
  statementsPerTurn: number;
  /** Of which top-level: sent by the instances. */
  sentPerTurn: number;
  transactionsPerTurn: number;
  rssMb: { instance: string; startMb: number; endMb: number }[];
  lostOrDuplicated: number;
  /** The statements run most often, per turn, and their execution time per turn: where the next saving is. */
  top: { perTurn: number; msPerTurn: number; query: string }[];
  /** Time the turns' statements waited on heavyweight locks (rows, tuples), per turn, and where. */
  lockWaitMsPerTurn: number;
  lockWaits: LockWaits;
  /** CPU per turn by process, and what these cores could carry; null off Linux. */
  cpu: CpuPerTurn | null;
  /** Only in soak mode. */
  soak?: SoakResult;
}

/** Why the section cannot run here, or null. */
function missing(): string | null {
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) return "the app is not built (run `npx next build`)";
  return missingPrerequisite();
}

/** Each mode's runs. */
export type LoadModes = Partial<Record<UsersMode, LoadBenchResult[]>>;

export async function benchLoad(): Promise<LoadModes | null> {
  const why = missing();
  if (why) {
    console.log(`\nLoad: skipped, ${why}.`);
    return null;
  }
  const modes = usersModes();
  const out: LoadModes = {};
  // The modes take turns, so a machine that grows busier weighs on both alike.
  for (let i = 0; i < RUNS; i++) for (const mode of modes) (out[mode] ??= []).push(await loadOnce(mode));
  return out;
}

async function loadOnce(mode: UsersMode): Promise<LoadBenchResult> {
  const cluster = await startCluster({ shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" });
  const fake = await startFakeAnthropic();
  const admin = postgres(cluster.url(SUPERUSER), { max: 1, onnotice: () => {} });
  const apps: AppInstance[] = [];
  let locks: ReturnType<typeof startLockSampler> | undefined;
  try {
    await applyFixture(cluster.url(SUPERUSER));
    await admin.unsafe("create extension if not exists pg_stat_statements");
    await admin.unsafe("create database bench_sampler");
    const env = {
      ANTHROPIC_API_KEY: "bench",
      ANTHROPIC_BASE_URL: fake.url,
      THREADKEEPER_MODEL: "claude-haiku-4-5",
      THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0",
      THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0",
    };
    apps.push(await startApp("a", cluster.url(APP_ROLE), env), await startApp("b", cluster.url(APP_ROLE), env));
    const callers = await seedCallers(admin, mode, SESSIONS);
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const res = await api<{ session: SessionJson }>(apps[i % 2], "POST", "/api/session", { title: `load ${i}` }, callers[i]);
      sessions.push(res.body.session.id);
    }
    // One turn each first, so the load measures ordinary turns (the first one names the session).
    await Promise.all(
      sessions.map((id, i) => api(apps[i % 2], "POST", `/api/session/${id}/messages`, { content: "Let us start." }, callers[i])),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const rssStart = await Promise.all(apps.map(rssMb));
    const [before] = await admin.unsafe<{ xacts: string }[]>(
      "select xact_commit + xact_rollback as xacts from pg_stat_database where datname = current_database()",
    );
    await admin.unsafe("select pg_stat_statements_reset()");
    const [{ pid: backendPid }] = await admin.unsafe<{ pid: number }[]>("select pg_backend_pid() as pid");
    const cpuBefore = await cpuSnapshot(apps, backendPid);

    const latencies: number[] = [];
    let errors = 0;
    // Each session's user messages sent; a soak moves each sender to a new session every
    // SOAK_TURNS_PER_SESSION turns, so the load stays that of ordinary sessions and the memory
    // measured is the server's, not a few histories growing without end.
    const sent = new Map<string, { app: AppInstance; caller: Record<string, string>; messages: number }>(
      sessions.map((id, i) => [id, { app: apps[i % 2], caller: callers[i], messages: 1 }]),
    );
    locks = startLockSampler(cluster.url(SUPERUSER, "bench_sampler"), "postgres");
    const started = performance.now();
    const soakUntil = started + SOAK_SECONDS * 1000;
    const sampler = SOAK_SECONDS > 0 ? startRssSampler(apps) : null;
    await Promise.all(
      sessions.map(async (first, s) => {
        let id = first;
        for (let t = 0; sampler ? performance.now() < soakUntil : t < TURNS; t++) {
          if (sampler && t > 0 && t % SOAK_TURNS_PER_SESSION === 0) {
            const fresh = await api<{ session: SessionJson }>(apps[(s + t) % 2], "POST", "/api/session", { title: `soak ${s}.${t}` }, callers[s]);
            id = fresh.body.session.id;
            sent.set(id, { app: apps[(s + t) % 2], caller: callers[s], messages: 0 });
          }
          const t0 = performance.now();
          // The fake echoes at most 200 characters of the last user message, so its replies stay
          // short however long a soak's sessions grow.
          const res = await api<SendResultJson>(apps[(s + t) % 2], "POST", `/api/session/${id}/messages`, {
            content: `Turn ${t} of session ${s}: what should we look at next in the parser?`,
          }, callers[s]);
          latencies.push(performance.now() - t0);
          const counted = sent.get(id);
          if (counted) counted.messages++;
          if (res.status !== 201 || res.body.error) errors++;
          // The fake keeps every request it saw; a soak's, whole windows each, would fill this process.
          if (sampler) fake.requests.length = 0;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const lockWaits = await locks.stop();
    locks = undefined;
    const cpuAfter = await cpuSnapshot(apps, backendPid);
    const soak = await sampler?.stop();
    // The turns' follow-ups (checkpoints, leases) and the background indexer finish.
    await new Promise((r) => setTimeout(r, 3000));
    // Top-level: what the instances (turns and background work) sent; the rest ran nested inside
    // those: triggers, foreign-key checks, functions.
    const [work] = await admin.unsafe<{ calls: string; sent: string }[]>(
      `select coalesce(sum(calls), 0) as calls, coalesce(sum(calls) filter (where toplevel), 0) as sent
       from pg_stat_statements where query not ilike '%pg_stat%'`,
    );
    const top = await admin.unsafe<{ calls: string; ms: number; query: string }[]>(
      `select calls, total_exec_time as ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query from pg_stat_statements
       where query not ilike '%pg_stat%' order by calls desc limit 40`,
    );
    const [after] = await admin.unsafe<{ xacts: string }[]>(
      "select xact_commit + xact_rollback as xacts from pg_stat_database where datname = current_database()",
    );
    const rssEnd = await Promise.all(apps.map(rssMb));
    let lostOrDuplicated = 0;
    for (const [id, { app, caller, messages }] of sent) lostOrDuplicated += Math.abs((await userMessages(app, id, caller)) - messages);
    const turns = latencies.length;
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      users: mode,
      sessions: SESSIONS,
      turns,
      seconds,
      latency: { ...summarize(latencies), p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] },
      errors,
      statementsPerTurn: Number(work.calls) / turns,
      sentPerTurn: Number(work.sent) / turns,
      // Each admin query is its own transaction: the four reads above are left out.
      transactionsPerTurn: (Number(after.xacts) - Number(before.xacts) - 4) / turns,
      rssMb: apps.map((a, i) => ({ instance: a.name, startMb: rssStart[i], endMb: rssEnd[i] })),
      lostOrDuplicated,
      top: top.map((t) => ({ perTurn: Number(t.calls) / turns, msPerTurn: t.ms / turns, query: t.query })),
      lockWaitMsPerTurn: lockWaits.totalMs / turns,
      lockWaits,
      cpu: cpuPerTurn(cpuBefore, cpuAfter, turns),
      ...(soak ? { soak } : {}),
    };
  } finally {
    await locks?.stop();
    for (const a of apps) await a.stop();
    await admin.end({ timeout: 5 });
    await fake.close();
    await cluster.stop();
  }
}

const turnsPerS = (r: LoadBenchResult) => r.turns / r.seconds;
const statementsCell = (all: number, sent: number) => `${all.toFixed(1)} (${sent.toFixed(1)} + ${(all - sent).toFixed(1)})`;
const cpuCell = (c: CpuPerTurn | null) =>
  c ? `${c.machineMs.toFixed(1)} (${c.instancesMs.toFixed(1)} / ${c.postgresMs.toFixed(1)} / ${c.benchMs.toFixed(1)}) -> ${c.ceilingTurnsPerS.toFixed(0)}/s` : "";
const mid = (runs: readonly LoadBenchResult[], f: (r: LoadBenchResult) => number) => median(runs.map(f).sort((a, b) => a - b));

/** Each figure's median over the runs; the CPU's only when every run read it. */
function medians(runs: readonly LoadBenchResult[]) {
  const cpus = runs.map((r) => r.cpu).filter((c): c is CpuPerTurn => c !== null);
  const cpu = (f: (c: CpuPerTurn) => number) => median(cpus.map(f).sort((a, b) => a - b));
  return {
    turnsPerS: mid(runs, turnsPerS),
    p50: mid(runs, (r) => r.latency.medianMs),
    p95: mid(runs, (r) => r.latency.p95Ms),
    p99: mid(runs, (r) => r.latency.p99Ms),
    statements: mid(runs, (r) => r.statementsPerTurn),
    sent: mid(runs, (r) => r.sentPerTurn),
    transactions: mid(runs, (r) => r.transactionsPerTurn),
    lockWait: mid(runs, (r) => r.lockWaitMsPerTurn),
    cpu:
      cpus.length === runs.length && cpus.length > 0
        ? {
            instancesMs: cpu((c) => c.instancesMs),
            postgresMs: cpu((c) => c.postgresMs),
            benchMs: cpu((c) => c.benchMs),
            machineMs: cpu((c) => c.machineMs),
            cores: cpus[0].cores,
            ceilingTurnsPerS: cpu((c) => c.ceilingTurnsPerS),
          }
        : null,
  };
}

const WHOSE: Record<UsersMode, string> = { one: "all of one user, through one key", many: "each of its own user, each with a key" };

export function printLoad(modes: LoadModes): void {
  for (const runs of Object.values(modes)) printMode(runs);
  const { one, many } = modes;
  if (!one || !many) return;
  const [a, b] = [medians(one), medians(many)];
  console.log(
    `\nOne user vs many users (medians): p50 ${fmtMs(a.p50)} vs ${fmtMs(b.p50)} (${(a.p50 / b.p50).toFixed(2)}x; target <= 1.2x; ` +
      `run by run, each one-user run over the many-users run beside it: ${pairRatios(one, many).map((r) => `${r.toFixed(2)}x`).join(", ")}), ` +
      `turns/s ${a.turnsPerS.toFixed(1)} vs ${b.turnsPerS.toFixed(1)}, lock wait per turn ${fmtMs(a.lockWait)} vs ${fmtMs(b.lockWait)} (target < 5 ms).`,
  );
}

/**
 * Each one-user run's p50 over that of the many-users run that followed it: a shared machine's
 * load drifts between runs more than between the two halves of a pair.
 */
function pairRatios(one: readonly LoadBenchResult[], many: readonly LoadBenchResult[]): number[] {
  return one.slice(0, many.length).map((r, i) => r.latency.medianMs / many[i].latency.medianMs);
}

function printMode(runs: readonly LoadBenchResult[]): void {
  const r = runs[0];
  const m = medians(runs);
  const shape = r.soak
    ? `${r.sessions} sessions sending turns for ${Math.round(r.soak.seconds)} s (soak)`
    : `${r.sessions} sessions x ${r.turns / r.sessions} turns at once, ${runs.length} run${runs.length === 1 ? "" : "s"}`;
  console.log(`\nLoad: two next start instances on one PostgreSQL 15, ${shape}, the sessions ${WHOSE[r.users]}, the fake API answering at once.`);
  const rows = runs.map((x, i) => [
    String(i + 1),
    fmtInt(x.turns),
    turnsPerS(x).toFixed(1),
    fmtMs(x.latency.medianMs),
    fmtMs(x.latency.p95Ms),
    fmtMs(x.latency.p99Ms),
    String(x.errors),
    String(x.lostOrDuplicated),
    statementsCell(x.statementsPerTurn, x.sentPerTurn),
    x.transactionsPerTurn.toFixed(1),
    fmtMs(x.lockWaitMsPerTurn),
    cpuCell(x.cpu),
    x.rssMb.map((m) => `${m.instance} ${m.startMb} -> ${m.endMb}`).join(", "),
  ]);
  if (runs.length > 1) {
    const sum = (f: (x: LoadBenchResult) => number) => String(runs.reduce((n, x) => n + f(x), 0));
    rows.push(["median", fmtInt(mid(runs, (x) => x.turns)), m.turnsPerS.toFixed(1), fmtMs(m.p50), fmtMs(m.p95), fmtMs(m.p99),
      sum((x) => x.errors), sum((x) => x.lostOrDuplicated), statementsCell(m.statements, m.sent), m.transactions.toFixed(1), fmtMs(m.lockWait), cpuCell(m.cpu), ""]);
  }
  console.log(
    table(
      ["run", "turns", "turns/s", "p50", "p95", "p99", "errors", "lost or duplicated", "statements / turn (sent + nested)", "transactions / turn", "lock wait / turn",
        "CPU ms / turn (instances / PostgreSQL / bench) -> most turns/s", "RSS start -> end (MB)"],
      rows,
    ),
  );
  // The run nearest the median turns/s stands for the others in what follows.
  const typical = [...runs].sort((a, b) => Math.abs(turnsPerS(a) - m.turnsPerS) - Math.abs(turnsPerS(b) - m.turnsPerS))[0];
  if (typical.cpu) console.log(cpuLine(typical.cpu));
  console.log("The statements run most often (calls per turn, and their execution time per turn; a statement's includes what it runs nested):");
  console.log(table(["per turn", "ms / turn", "statement"], typical.top.map((t) => [t.perTurn.toFixed(2), t.msPerTurn.toFixed(2), t.query])));
  const w = typical.lockWaits;
  console.log(`Lock waits (${fmtInt(w.samples)} samples of pg_stat_activity; ms of waiting per turn, the wait event, the waiting statement):`);
  if (w.top.length > 0) console.log(table(["ms / turn", "event", "statement"], w.top.map((t) => [(t.ms / typical.turns).toFixed(2), t.event, t.query])));
  if (typical.soak) printSoak(typical.soak);
}

export function loadJson(modes: LoadModes) {
  const { one, many } = modes;
  return {
    one_user: one ? modeJson(one) : null,
    many_users: many ? modeJson(many) : null,
    one_vs_many_p50: one && many ? Math.round((medians(one).p50 / medians(many).p50) * 100) / 100 : null,
    one_vs_many_p50_by_run: one && many ? pairRatios(one, many).map((r) => Math.round(r * 100) / 100) : null,
  };
}

function modeJson(runs: readonly LoadBenchResult[]) {
  const m = medians(runs);
  return {
    runs: runs.map(runJson),
    median: {
      turns_per_s: round1(m.turnsPerS),
      p50_ms: Math.round(m.p50),
      p95_ms: Math.round(m.p95),
      p99_ms: Math.round(m.p99),
      statements_per_turn: round1(m.statements),
      top_level_statements_per_turn: round1(m.sent),
      transactions_per_turn: round1(m.transactions),
      lock_wait_ms_per_turn: round1(m.lockWait),
      cpu_ms_per_turn: m.cpu && cpuJson(m.cpu),
    },
  };
}

const cpuJson = (c: CpuPerTurn) => ({
  instances: round1(c.instancesMs),
  postgres: round1(c.postgresMs),
  bench: round1(c.benchMs),
  machine: round1(c.machineMs),
  ceiling_turns_per_s: Math.round(c.ceilingTurnsPerS),
});

function runJson(r: LoadBenchResult) {
  return {
    sessions: r.sessions,
    turns: r.turns,
    turns_per_s: round1(turnsPerS(r)),
    p50_ms: Math.round(r.latency.medianMs),
    p95_ms: Math.round(r.latency.p95Ms),
    p99_ms: Math.round(r.latency.p99Ms),
    errors: r.errors,
    lost_or_duplicated: r.lostOrDuplicated,
    statements_per_turn: Math.round(r.statementsPerTurn * 10) / 10,
    top_level_statements_per_turn: Math.round(r.sentPerTurn * 10) / 10,
    transactions_per_turn: Math.round(r.transactionsPerTurn * 10) / 10,
    lock_wait_ms_per_turn: round1(r.lockWaitMsPerTurn),
    lock_waits: r.lockWaits.top.map((t) => ({ ms_per_turn: round1(t.ms / r.turns), event: t.event, query: t.query })),
    rss_mb: r.rssMb,
    cpu_ms_per_turn: r.cpu && cpuJson(r.cpu),
    ...(r.soak ? { soak: soakJson(r.soak) } : {}),
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
