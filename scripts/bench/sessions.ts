// Sessions benchmarks: resume and checkpoint restore of a 10,000-message session (docs/architecture.md:
// "Session resume and restore: under 200 ms for 10,000 messages"), checkpoint saving and the
// auto-checkpoint decision, and the session picker over 1,000 sessions of one user.
//
// Every figure calls the real library function, as its route does. Where a target is missed
// (or an operation is slow) the section also says where the time goes: the function's own
// queries timed one by one (through a timing wrapper around the database), and EXPLAIN
// ANALYZE of its dominant query, replayed in a transaction that is rolled back.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { autoCheckpoint, restoreCheckpoint, saveCheckpoint } from "@/lib/operations/checkpoints";
import { assembleWindow, loadContext } from "@/lib/operations/session-context";
import { resumeSession } from "@/lib/operations/recovery";
import { messagesPage, pickerSessions, removeSession } from "@/lib/operations/sessions";
import { checkpointTags, mentionsError, type CheckpointTag } from "@/lib/context/checkpoint-triggers";
import { LOCAL_USER_ID, setDb, withUser, type Database, type Tx } from "@/lib/db";
import { getSession } from "@/lib/db/sessions";
import { newUserMessage } from "./corpus";
import { fmtInt, fmtMs, round3, statJson, table } from "./report";
import { seedSession, type TextPool } from "./seed";
import { measure, median, summarize, timeOnce, type MeasureOptions, type Stat } from "./stats";

/** docs/architecture.md "Performance targets" (medians). */
const TARGET_MS = 200;
const LONG_SESSION = 10_000;
const PICKER_SESSIONS = 1_000;
const PICKER_PROJECTS = 8;
/** A keyword planted in about 1% of the picker sessions (and a few titles). */
const RARE_WORD = "quokka";
/** A word of the seeding corpus: it occurs in thousands of messages, long sessions included. */
const COMMON_WORD = "migration";
/** Traced (per-query) runs for the breakdowns; medians per query. */
const TRACE_RUNS = 3;

export interface SessionsOp {
  key: string;
  operation: string;
  stat: Stat;
  targetMs: number | null;
}

export interface QueryPart {
  label: string;
  medianMs: number;
}

/** EXPLAIN ANALYZE of one statement: its total, and the nodes and triggers it spent it in. */
export interface PlanSummary {
  executionMs: number;
  planningMs: number;
  /** Heaviest plan nodes by exclusive time. */
  nodes: { node: string; selfMs: number; rows: number }[];
  triggers: { name: string; ms: number; calls: number }[];
}

export interface SessionsBenchResult {
  facts: {
    messages: number;
    capacity: number;
    windowMessages: number;
    windowStartTurn: number;
    /** Rows the fork holds itself right after restore: none, it reads the source's. */
    forkOwnRows: number;
    tsMatchLeakproof: boolean;
    pickerSessions: number;
    userSessions: number;
    userMessages: number;
    pickerHits: { default: number; rare: number; common: number; project: number };
    rareWordSessions: number;
    autoCheckpointSaved: number;
    autoCheckpointTags: CheckpointTag[];
    measureS: number;
    /** 1-minute load average before and after the section (other processes skew the figures). */
    load: [number, number];
  };
  ops: SessionsOp[];
  restoreParts: QueryPart[];
  restoreTotalMs: number;
  searchParts: QueryPart[];
  searchPlan: PlanSummary | null;
  /** The keyword search statement run as the table owner (no RLS). */
  searchOwnerMs: number;
  searchOwnerPlan: PlanSummary | null;
}

// ---------------------------------------------------------------------------------------
// Timing the queries of one library call.

interface TracedQuery {
  sql: string;
  params: unknown[];
  ms: number;
}

/** The same database, recording every query with its parameters and duration. */
function tracingDb(db: Database, log: TracedQuery[]): Database {
  const wrap = (tx: Tx): Tx => ({
    query: async <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> => {
      const t0 = performance.now();
      const rows = await tx.query<T>(sql, params);
      log.push({ sql, params: params ?? [], ms: performance.now() - t0 });
      return rows;
    },
    exec: (sql: string) => tx.exec(sql),
  });
  return {
    kind: db.kind,
    transaction: <T>(fn: (tx: Tx) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    execAutocommit: (sql: string) => db.execAutocommit(sql),
    close: () => db.close(),
  };
}

/** "insert into messages", "select sessions", "withUser: claims, role", ... */
function queryLabel(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim().toLowerCase();
  if (s.startsWith("select set_config") || s.startsWith("set local role")) return "withUser: claims, role";
  const write = /\b(insert into|update|delete from)\s+([a-z_.]+)/.exec(s);
  if (write) return `${write[1]} ${write[2]}`;
  // A select is named after its outermost FROM (not one of its subqueries').
  let best: { table: string; depth: number } | null = null;
  for (const m of s.matchAll(/\bfrom\s+([a-z_.]+)/g)) {
    const before = s.slice(0, m.index);
    const depth = (before.match(/\(/g)?.length ?? 0) - (before.match(/\)/g)?.length ?? 0);
    if (!best || depth < best.depth) best = { table: m[1], depth };
  }
  return best ? `select ${best.table}` : s.slice(0, 40);
}

interface Traced<T> {
  runs: TracedQuery[][];
  wallMs: number[];
  last: T;
}

/** Runs `fn` `runs` times with every query timed; the database is switched back after. */
async function traced<T>(db: Database, runs: number, fn: () => Promise<T>): Promise<Traced<T>> {
  const out: TracedQuery[][] = [];
  const wall: number[] = [];
  let last!: T;
  try {
    for (let r = 0; r < runs; r++) {
      const log: TracedQuery[] = [];
      setDb(tracingDb(db, log));
      const t = await timeOnce(fn);
      last = t.value;
      wall.push(t.ms);
      out.push(log);
    }
  } finally {
    setDb(db);
  }
  return { runs: out, wallMs: wall, last };
}

/** Medians per query position (the sequence is the same every run), plus the transaction's own cost. */
function queryParts(t: Traced<unknown>): { parts: QueryPart[]; totalMs: number } {
  const first = t.runs[0];
  const seen = new Map<string, number>();
  const parts: QueryPart[] = first.map((q, i) => {
    const base = queryLabel(q.sql);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const samples = t.runs.filter((r) => r.length === first.length).map((r) => r[i].ms);
    return { label: n > 1 ? `${base} (${n})` : base, medianMs: summarize(samples).medianMs };
  });
  const totalMs = summarize(t.wallMs).medianMs;
  // Per run: the call's wall time less its queries' (begin, commit, JS between queries).
  const outside = t.runs.map((r, i) => t.wallMs[i] - r.reduce((a, q) => a + q.ms, 0));
  parts.push({ label: "transaction begin/commit, JS", medianMs: Math.max(0, summarize(outside).medianMs) });
  return { parts, totalMs };
}

/** The query of a trace that took longest (median over runs), as the last run sent it. */
function heaviest(t: Traced<unknown>): TracedQuery {
  const first = t.runs[0];
  let best = 0;
  let bestMs = -1;
  first.forEach((_, i) => {
    const ms = median(t.runs.map((r) => r[i]?.ms ?? 0).sort((a, b) => a - b));
    if (ms > bestMs) {
      bestMs = ms;
      best = i;
    }
  });
  return t.runs[t.runs.length - 1][best];
}

// ---------------------------------------------------------------------------------------
// EXPLAIN ANALYZE, replayed as the user and rolled back.

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "CTE Name"?: string;
  Operation?: string;
  "Actual Total Time"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

interface ExplainRoot {
  Plan: PlanNode;
  "Planning Time"?: number;
  "Execution Time"?: number;
  Triggers?: { "Trigger Name": string; Relation?: string; Time: number; Calls: number }[];
}

class Rollback extends Error {}

function nodeName(n: PlanNode): string {
  const what = n["Index Name"] ?? n["Relation Name"] ?? n["CTE Name"];
  const op = n["Node Type"] === "ModifyTable" && n.Operation ? n.Operation : n["Node Type"];
  return what ? `${op} on ${what}` : op;
}

function summarizePlan(root: ExplainRoot): PlanSummary {
  const nodes: PlanSummary["nodes"] = [];
  const walk = (n: PlanNode): void => {
    const total = (n["Actual Total Time"] ?? 0) * (n["Actual Loops"] ?? 1);
    const children = (n.Plans ?? []).reduce((a, c) => a + (c["Actual Total Time"] ?? 0) * (c["Actual Loops"] ?? 1), 0);
    nodes.push({ node: nodeName(n), selfMs: round3(Math.max(0, total - children)), rows: (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1) });
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(root.Plan);
  // A CTE Scan's time includes running the CTE it reads, which is listed on its own.
  const hot = nodes.filter((n) => !n.node.startsWith("CTE Scan")).sort((a, b) => b.selfMs - a.selfMs);
  return {
    executionMs: root["Execution Time"] ?? 0,
    planningMs: root["Planning Time"] ?? 0,
    nodes: hot.slice(0, 3),
    triggers: (root.Triggers ?? []).map((t) => ({ name: t["Trigger Name"], ms: round3(t.Time), calls: t.Calls })),
  };
}

/**
 * EXPLAIN ANALYZE of `q` as the user (RLS on), rolled back.
 */
async function explainAsUser(q: TracedQuery): Promise<PlanSummary | null> {
  return explain((fn) => withUser(LOCAL_USER_ID, fn), q);
}

/** The same as the table owner: row-level security off. */
async function explainAsOwner(db: Database, q: TracedQuery): Promise<PlanSummary | null> {
  return explain((fn) => db.transaction(fn), q);
}

async function explain(
  run: (fn: (tx: Tx) => Promise<void>) => Promise<void>,
  q: TracedQuery,
): Promise<PlanSummary | null> {
  let summary: PlanSummary | null = null;
  try {
    await run(async (tx) => {
      const rows = await tx.query<Record<string, unknown>>(`explain (analyze, format json) ${q.sql}`, q.params);
      const raw = rows[0] ? Object.values(rows[0])[0] : undefined;
      const parsed: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
      if (Array.isArray(parsed) && parsed[0] && typeof parsed[0] === "object") summary = summarizePlan(parsed[0] as ExplainRoot);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return summary;
}

// ---------------------------------------------------------------------------------------
// Seeding the picker: 1,000 sessions of two to six messages each, set-based (a second or two).

interface PickerSeed {
  projectIds: string[];
}

async function seedPicker(db: Database, pool: TextPool): Promise<PickerSeed> {
  return db.transaction(async (tx) => {
    const projects = await tx.query<{ id: string }>(
      `insert into projects (user_id, name)
       select $1, 'Sessions bench project ' || g from generate_series(1, $2::int) g
       returning id`,
      [LOCAL_USER_ID, PICKER_PROJECTS],
    );
    const projectIds = projects.map((p) => p.id);
    // Session g: 2, 4 or 6 messages; a third in a project; titled after its first message; a
    // rare keyword in 1% of them (in what was said) and in a few titles.
    await tx.query(
      `create temp table picker_seed on commit drop as
       select g, gen_random_uuid() as id, 2 + 2 * (g % 3) as n,
              case when g % 3 = 0 then ($2::uuid[])[1 + (g / 3) % $3::int] end as project_id,
              now() - make_interval(mins => g * 7) as at
       from generate_series(1, $1::int) g`,
      [PICKER_SESSIONS, projectIds, projectIds.length],
    );
    await tx.query(
      `create temp table picker_msgs on commit drop as
       select s.id as session_id, m as seq, (m + 1) / 2 as turn_seq, p.role, p.text, p.tokens,
              s.at - make_interval(secs => (s.n - m) * 30) as at
       from picker_seed s
       cross join lateral generate_series(1, s.n) m
       cross join lateral (select (s.g * 7 + m * 13) % $5::int + 1 as k) h
       cross join lateral (
         select case when m % 2 = 1 then 'user' else 'assistant' end as role,
                case when m % 2 = 1 then ($1::text[])[h.k] || case when s.g % 100 = 7 and m = 1 then $6 else '' end
                                    else ($3::text[])[h.k] end as text,
                case when m % 2 = 1 then ($2::int[])[h.k] else ($4::int[])[h.k] end as tokens
       ) p`,
      [pool.userTexts, pool.userTokens, pool.assistantTexts, pool.assistantTokens, pool.userTexts.length, ` Also, the ${RARE_WORD} cache drops entries.`],
    );
    await tx.query(
      `insert into sessions (id, user_id, title, title_source, model, project_id, next_seq, last_turn_seq, message_count,
         tail_tokens, last_message_preview, created_at, updated_at, last_message_at)
       select s.id, $1,
              case when s.g % 250 = 3 then $2 else left(split_part(first.text, '?', 1), 60) end,
              'heuristic', 'claude-sonnet-5-5', s.project_id, s.n + 1, s.n / 2, s.n,
              agg.tokens, left(last.text, 200), s.at - interval '1 hour', s.at, s.at
       from picker_seed s
       cross join lateral (select text from picker_msgs where session_id = s.id and seq = 1) first
       cross join lateral (select text from picker_msgs where session_id = s.id and seq = s.n) last
       cross join lateral (select sum(tokens)::int as tokens from picker_msgs where session_id = s.id) agg`,
      [LOCAL_USER_ID, `Debugging the ${RARE_WORD} cache`],
    );
    await tx.query(
      `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status, created_at, updated_at)
       select session_id, $1, seq, turn_seq, role, jsonb_build_array(jsonb_build_object('type', 'text', 'text', text)),
              text, tokens, 'complete', at, at
       from picker_msgs`,
      [LOCAL_USER_ID],
    );
    // A fifth of the sessions have a checkpoint, every 25th three.
    await tx.query(
      `insert into session_checkpoints (session_id, user_id, label, trigger, auto_tags, through_seq, through_turn,
         window_start_turn, token_count, created_at)
       select s.id, $1, case when c = 1 and s.g % 10 = 0 then 'Before refactor' end,
              case when c = 1 and s.g % 10 = 0 then 'manual' else 'auto' end,
              case when c = 1 and s.g % 10 = 0 then '{}'::text[] else array['periodic'] end,
              s.n, s.n / 2, 1, 200 * s.n, s.at - make_interval(mins => c)
       from picker_seed s cross join lateral generate_series(1, case when s.g % 25 = 0 then 3 else 1 end) c
       where s.g % 5 = 0`,
      [LOCAL_USER_ID],
    );
    await tx.query(
      `update sessions s set last_checkpoint_at = c.at, last_checkpoint_seq = c.seq
       from (select session_id, max(created_at) as at, max(through_seq) as seq from session_checkpoints group by session_id) c
       where c.session_id = s.id and s.user_id = $1`,
      [LOCAL_USER_ID],
    );
    await tx.exec("analyze sessions; analyze messages; analyze session_checkpoints; analyze projects");
    return { projectIds };
  });
}

// ---------------------------------------------------------------------------------------

function check(cond: boolean, message: string): void {
  if (!cond) throw new Error(`sessions bench sanity check failed: ${message}`);
}

async function count(db: Database, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.transaction((tx) => tx.query<{ n: number }>(sql, params));
  return row.n;
}

export async function benchSessions(db: Database, pool: TextPool, opts: MeasureOptions): Promise<SessionsBenchResult> {
  const started = performance.now();
  const loadBefore = os.loadavg()[0];
  const ops: SessionsOp[] = [];
  const op = (key: string, operation: string, stat: Stat, targetMs: number | null = null) =>
    ops.push({ key, operation, stat, targetMs });

  // The long session, on a 1M-token model, with the window slid as its first send would.
  const seeded = await seedSession(db, pool, LONG_SESSION, "sessions bench 10k");
  const id = seeded.sessionId;
  const first = await withUser(LOCAL_USER_ID, async (tx) => {
    const ctx = await loadContext(tx, LOCAL_USER_ID, await getSession(tx, LOCAL_USER_ID, id));
    const w = await assembleWindow(tx, ctx, ctx.calibration.factor);
    return { capacity: ctx.capacity.capacity, windowMessages: w.messages.length, cutoff: w.selection.cutoffTurnSeq };
  });

  // 1. Resume, as POST /api/session/{id}/resume, then the first page the UI loads after it.
  const resume = await measure(() => resumeSession(LOCAL_USER_ID, id), opts);
  check(resume.last.session.id === id, "resume returned another session");
  const page = await measure(() => messagesPage(LOCAL_USER_ID, id, undefined, 100), opts);
  check(page.last.messages.length === 100 && page.last.has_more, "first page should hold 100 messages and more");
  const both = await measure(async () => {
    await resumeSession(LOCAL_USER_ID, id);
    return messagesPage(LOCAL_USER_ID, id, undefined, 100);
  }, opts);
  op("resume", `resume, ${fmtInt(LONG_SESSION)} msgs`, resume.stat, TARGET_MS);
  op("first_page", "first messages page (100) after it", page.stat);
  op("resume_and_page", "resume + first page (back to back)", both.stat, TARGET_MS);

  // 4. Checkpoint save on the long session (pruning keeps the newest 50), and the automatic one.
  const save = await measure(() => saveCheckpoint(LOCAL_USER_ID, { session_id: id }), opts);
  op("checkpoint_save", `save checkpoint, ${fmtInt(LONG_SESSION)} msgs`, save.stat);
  const turn = (i: number) => ({
    userText: newUserMessage(i),
    replyText: pool.assistantTexts[i % pool.assistantTexts.length],
    previousTurnHadError: mentionsError(pool.assistantTexts[(i + 1) % pool.assistantTexts.length]),
    messagesSinceLast: i % 12,
    msSinceLast: 45_000 * (i % 9),
  });
  const tags = await measure((i) => checkpointTags(turn(i)), opts);
  op("checkpoint_tags", "auto-checkpoint decision (checkpointTags)", tags.stat);
  let autoSaved = 0;
  const auto = await measure(async () => {
    const cp = await autoCheckpoint(LOCAL_USER_ID, id, seeded.turns);
    if (cp) autoSaved++;
    return cp;
  }, opts);
  op("auto_checkpoint", "auto-checkpoint after a turn (reads + decision + save)", auto.stat);

  // 3. The picker, before any fork exists: 1,000 short sessions besides the long one(s).
  const t0 = performance.now();
  const pickerSeed = await seedPicker(db, pool);
  const pickerSeedMs = performance.now() - t0;
  const userSessions = await count(db, "select count(*)::int as n from sessions where user_id = $1", [LOCAL_USER_ID]);
  const userMessages = await count(db, "select count(*)::int as n from messages where user_id = $1", [LOCAL_USER_ID]);
  const rareWordSessions = await count(
    db,
    `select count(*)::int as n from sessions s where s.user_id = $1 and (s.title ilike $2 or exists (
       select 1 from messages m where m.session_id = s.id and m.text ilike $2))`,
    [LOCAL_USER_ID, `%${RARE_WORD}%`],
  );
  const commonWordMessages = await count(
    db,
    "select count(*)::int as n from messages where user_id = $1 and search @@ plainto_tsquery('english', $2)",
    [LOCAL_USER_ID, COMMON_WORD],
  );
  const project = pickerSeed.projectIds[0];
  const pDefault = await measure(() => pickerSessions(LOCAL_USER_ID, { limit: 20 }), opts);
  const pRare = await measure(() => pickerSessions(LOCAL_USER_ID, { q: RARE_WORD, limit: 20 }), opts);
  const pCommon = await measure(() => pickerSessions(LOCAL_USER_ID, { q: COMMON_WORD, limit: 20 }), opts);
  const pProject = await measure(() => pickerSessions(LOCAL_USER_ID, { project_id: project, limit: 20 }), opts);
  check(pDefault.last.length === 20, "picker should fill a page of 20");
  check(pRare.last.length === Math.min(20, rareWordSessions), `keyword search found ${pRare.last.length} of ${rareWordSessions}`);
  check(pProject.last.length > 0 && pProject.last.every((s) => s.project_id === project), "project filter");
  op("picker", `picker: 20 most recent of ${fmtInt(userSessions)}`, pDefault.stat);
  op("picker_q_rare", `picker: q="${RARE_WORD}" (${rareWordSessions} sessions match)`, pRare.stat);
  op("picker_q_common", `picker: q="${COMMON_WORD}" (${fmtInt(commonWordMessages)} msgs match)`, pCommon.stat);
  op("picker_project", "picker: project_id filter", pProject.stat);
  const searchTrace = await traced(db, TRACE_RUNS, () => pickerSessions(LOCAL_USER_ID, { q: COMMON_WORD, limit: 20 }));
  const searchParts = queryParts(searchTrace).parts;
  const searchQuery = heaviest(searchTrace);
  const searchPlan = await explainAsUser(searchQuery);
  // The same statement as the table owner, where row-level security does not apply.
  const searchOwner = await measure(() => db.transaction((tx) => tx.query(searchQuery.sql, searchQuery.params)), opts);
  const searchOwnerPlan = await explainAsOwner(db, searchQuery);

  // 2. Restore: checkpoint the slid session, then fork it at that checkpoint, once per run.
  const cp = await saveCheckpoint(LOCAL_USER_ID, { session_id: id, label: "sessions bench" });
  const cpStart = await count(db, "select window_start_turn as n from session_checkpoints where id = $1", [cp.id]);
  check(cpStart === first.cutoff, `checkpoint window start ${cpStart} != window cutoff ${first.cutoff}`);
  const restore = await measure(() => restoreCheckpoint(LOCAL_USER_ID, cp.id), opts);
  const fork = restore.last.session.id;
  const forkOwnRows = await count(db, "select count(*)::int as n from messages where session_id = $1", [fork]);
  op("restore", `restore checkpoint → fork, ${fmtInt(LONG_SESSION)} msgs`, restore.stat, TARGET_MS);

  // The fork's hot paths read the history through session_lineage: they must cost what the
  // source's do.
  const windowOf = (sessionId: string) =>
    withUser(LOCAL_USER_ID, async (tx) => {
      const ctx = await loadContext(tx, LOCAL_USER_ID, await getSession(tx, LOCAL_USER_ID, sessionId));
      return (await assembleWindow(tx, ctx, ctx.calibration.factor)).messages.length;
    });
  const sourceWindow = await measure(() => windowOf(id), opts);
  const forkWindow = await measure(() => windowOf(fork), opts);
  check(forkWindow.last === sourceWindow.last, `fork window ${forkWindow.last} msgs, source ${sourceWindow.last}`);
  op("window_source", `assemble the window (${fmtInt(sourceWindow.last)} msgs): source`, sourceWindow.stat);
  op("window_fork", "assemble the window: fork", forkWindow.stat);
  const forkPage = await measure(() => messagesPage(LOCAL_USER_ID, fork, undefined, 100), opts);
  check(forkPage.last.messages.length === 100 && forkPage.last.has_more, "fork's first page should hold 100 messages and more");
  op("first_page_fork", "first messages page (100): fork", forkPage.stat);
  const forkResume = await measure(async () => {
    await resumeSession(LOCAL_USER_ID, fork);
    return messagesPage(LOCAL_USER_ID, fork, undefined, 100);
  }, opts);
  op("resume_and_page_fork", "resume + first page: fork", forkResume.stat, TARGET_MS);

  // Where the restore time goes: its queries, one by one.
  const restoreTrace = await traced(db, TRACE_RUNS, () => restoreCheckpoint(LOCAL_USER_ID, cp.id));
  const { parts: restoreParts, totalMs: restoreTotalMs } = queryParts(restoreTrace);

  // Deleting a source hands the history its forks read over to them: the cost restore no
  // longer pays moves here, once, for one fork (the others are dropped first).
  await db.transaction((tx) => tx.query(`delete from sessions where parent_session_id = $1 and id <> $2`, [id, fork]));
  const handOver = await timeOnce(() => removeSession(LOCAL_USER_ID, id));
  const handedOver = await count(db, "select count(*)::int as n from messages where session_id = $1", [fork]);
  op("delete_source", `delete the source, handing ${fmtInt(handedOver)} msgs to its fork (one run)`, summarize([handOver.ms]));
  await db.transaction((tx) => tx.query(`delete from sessions where id = $1`, [fork]));

  const leakproof = await count(db, "select coalesce(bool_and(proleakproof), false)::int as n from pg_proc where proname = 'ts_match_vq'", []);

  return {
    facts: {
      messages: seeded.messages,
      capacity: first.capacity,
      windowMessages: first.windowMessages,
      windowStartTurn: first.cutoff,
      forkOwnRows,
      tsMatchLeakproof: leakproof === 1,
      pickerSessions: PICKER_SESSIONS,
      userSessions,
      userMessages,
      pickerHits: {
        default: pDefault.last.length,
        rare: pRare.last.length,
        common: pCommon.last.length,
        project: pProject.last.length,
      },
      rareWordSessions,
      autoCheckpointSaved: autoSaved,
      autoCheckpointTags: checkpointTags(turn(opts.warmups + opts.runs - 1)),
      measureS: Math.round((performance.now() - started - pickerSeedMs) / 100) / 10,
      load: [Math.round(loadBefore * 100) / 100, Math.round(os.loadavg()[0] * 100) / 100],
    },
    ops,
    restoreParts,
    restoreTotalMs,
    searchParts,
    searchPlan,
    searchOwnerMs: searchOwner.stat.medianMs,
    searchOwnerPlan,
  };
}

// ---------------------------------------------------------------------------------------

function partsTable(parts: QueryPart[], totalMs: number): string {
  return table(
    ["part", "median", "share"],
    parts.map((p) => [p.label, fmtMs(p.medianMs), `${Math.round((100 * p.medianMs) / totalMs)}%`]),
  );
}

function planLines(p: PlanSummary): string[] {
  const lines = [`    execution ${fmtMs(p.executionMs)} (planning ${fmtMs(p.planningMs)}); heaviest plan nodes (exclusive time):`];
  for (const n of p.nodes) lines.push(`      ${n.node}: ${fmtMs(n.selfMs)}, ${fmtInt(n.rows)} rows`);
  for (const t of p.triggers) lines.push(`      trigger ${t.name}: ${fmtMs(t.ms)}, ${fmtInt(t.calls)} calls`);
  return lines;
}

export function printSessions(r: SessionsBenchResult): void {
  const f = r.facts;
  console.log(
    `\nSessions benchmarks: medians (p95); a ${fmtInt(f.messages)}-message session on a ${fmtInt(f.capacity)}-token window` +
      ` (${fmtInt(f.windowMessages)} messages in the window after the first send), ${fmtInt(f.pickerSessions)} more sessions for the picker;` +
      ` load average ${f.load[0]} → ${f.load[1]} on ${os.cpus().length} CPUs.`,
  );
  console.log(
    table(
      ["operation", "p50", "p95", "target (p50)", "met"],
      r.ops.map((o) => [
        o.operation,
        fmtMs(o.stat.medianMs),
        fmtMs(o.stat.p95Ms),
        o.targetMs === null ? "none" : `< ${o.targetMs} ms`,
        o.targetMs === null ? "-" : o.stat.medianMs < o.targetMs ? "yes" : "NO",
      ]),
    ),
  );
  const get = (key: string) => r.ops.find((o) => o.key === key);
  const res = get("resume");
  const pg = get("first_page");
  if (res && pg) {
    const sum = res.stat.medianMs + pg.stat.medianMs;
    console.log(`  resume + first page, sum of medians: ${fmtMs(sum)} (target < ${TARGET_MS} ms: ${sum < TARGET_MS ? "met" : "NOT met"})`);
  }
  console.log(
    `  the fork holds ${fmtInt(f.forkOwnRows)} rows of its own after restore: it reads the ${fmtInt(f.messages)} messages of its source` +
      ` by reference, and its window (from turn ${fmtInt(f.windowStartTurn)}) is the source's.`,
  );
  console.log(
    `  picker: ${fmtInt(f.userSessions)} sessions and ${fmtInt(f.userMessages)} messages of the user; pages returned: ` +
      `${f.pickerHits.default} / ${f.pickerHits.rare} / ${f.pickerHits.common} / ${f.pickerHits.project}. No target in docs/architecture.md.`,
  );
  console.log(
    `  auto-checkpoint: ${f.autoCheckpointSaved} of the timed and warm-up calls saved one; a typical turn's tags: [${f.autoCheckpointTags.join(", ")}]`,
  );

  console.log(`\nWhere restore time goes (${TRACE_RUNS} traced runs, medians per query; ${fmtMs(r.restoreTotalMs)} in all):`);
  console.log(partsTable(r.restoreParts, r.restoreTotalMs));
  if (r.searchPlan) {
    console.log(`\nWhere picker keyword-search time goes (q="${COMMON_WORD}", ${fmtInt(f.userMessages)} messages of the user):`);
    console.log(partsTable(r.searchParts, r.searchParts.reduce((a, p) => a + p.medianMs, 0)));
    console.log("  as the user (RLS on), EXPLAIN ANALYZE:");
    for (const l of planLines(r.searchPlan)) console.log(l);
    console.log(`  the same statement as the table owner (RLS off): ${fmtMs(r.searchOwnerMs)} median`);
    if (r.searchOwnerPlan) for (const l of planLines(r.searchOwnerPlan)) console.log(l);
    const userSeq = r.searchPlan.nodes.some((n) => n.node === "Seq Scan on messages");
    const ownerGin = r.searchOwnerPlan?.nodes.some((n) => n.node.includes("messages_search")) ?? false;
    if (userSeq && ownerGin && !f.tsMatchLeakproof) {
      console.log(
        "  The @@ operator (ts_match_vq) is not LEAKPROOF, so under the messages RLS policy Postgres may not use it as an index" +
          " condition: the search reads every message of the user instead of the GIN index, and grows with the user's history.",
      );
    }
  }
}

export function sessionsJson(r: SessionsBenchResult) {
  const f = r.facts;
  const get = (key: string) => r.ops.find((o) => o.key === key);
  const res = get("resume");
  const pg = get("first_page");
  return {
    messages: f.messages,
    capacity: f.capacity,
    window_messages: f.windowMessages,
    window_start_turn: f.windowStartTurn,
    fork_own_rows: f.forkOwnRows,
    picker_sessions: f.pickerSessions,
    user_sessions: f.userSessions,
    user_messages: f.userMessages,
    picker_hits: f.pickerHits,
    auto_checkpoint_saved: f.autoCheckpointSaved,
    resume_plus_page_sum_ms: res && pg ? round3(res.stat.medianMs + pg.stat.medianMs) : null,
    ops: r.ops.map((o) => ({
      operation: o.key,
      ...statJson(o.stat),
      target_ms: o.targetMs,
      met: o.targetMs === null ? null : o.stat.medianMs < o.targetMs,
    })),
    restore_breakdown_ms: Object.fromEntries(r.restoreParts.map((p) => [p.label, round3(p.medianMs)])),
    picker_search_plan: r.searchPlan,
    picker_search_owner_ms: round3(r.searchOwnerMs),
    picker_search_owner_plan: r.searchOwnerPlan,
    measure_s: f.measureS,
    load_avg: f.load,
  };
}
