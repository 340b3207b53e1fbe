// GET /api/usage and /api/usage/summary against the real database: every grouping, exact
// figures for ranges that cut days anywhere (checked against a brute-force sum of the calls),
// the turn view's compactions and slides, CSV, validation, and one user never seeing another's.
//
// Calls are seeded at chosen times with the recorder's own rollup upsert (recordLlmCall always
// stamps now()); one test goes through recordLlmCall itself and one through a real chat.
import { randomUUID } from "node:crypto";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { describe, expect, it } from "vitest";
import * as usageRoute from "@/app/api/usage/route";
import * as summaryRoute from "@/app/api/usage/summary/route";
import * as oneSession from "@/app/api/session/[id]/route";
import { LOCAL_USER_ID, withUser, type Database } from "@/lib/db";
import { fromPGlite } from "@/lib/db/driver";
import { applyEmbeddedAuth, migrate } from "@/lib/db/migrate";
import { recordLlmCall } from "@/lib/db/llm-calls";
import { foldPendingRollups } from "@/lib/search/indexer";
import { usageReport, usageSummary } from "@/lib/usage";
import { CALL_ERROR_SQL } from "@/lib/db/usage/sums";
import type { DayRowJson, ModelRowJson, SessionRowJson, TurnRowJson, UsageReportJson, UsageSummaryJson } from "@/lib/contract";
import { idle, newSession, params, req, sendJson, useHarness } from "./harness";

const h = useHarness();
const MIGRATIONS = path.join(process.cwd(), "supabase", "migrations");

interface Call {
  at: string;
  sessionId?: string | null;
  turn?: number | null;
  kind?: "chat" | "summary" | "title";
  model?: string;
  input: number;
  output?: number;
  write?: number;
  read?: number;
  cost: number;
  estimated?: number | null;
  windowStart?: number | null;
  capacity?: number | null;
  userId?: string;
}

const INSERT_CALL = `insert into llm_calls (user_id, session_id, turn_seq, kind, model, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_usd, estimated_input_tokens, window_start_turn,
    capacity_tokens, created_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;

/** Before migration 20261123000009 the recorder added each call to the daily rollup itself. */
const INSERT_CALL_AND_DAILY = `with call as (${INSERT_CALL} returning *)
  insert into llm_usage_daily as d (user_id, day, session_id, model, kind, requests, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_usd)
  select user_id, (created_at at time zone 'UTC')::date, session_id, model, kind, 1, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_usd from call
  on conflict (user_id, day, session_id, model, kind) do update set
    requests = d.requests + 1,
    input_tokens = d.input_tokens + excluded.input_tokens,
    output_tokens = d.output_tokens + excluded.output_tokens,
    cache_creation_input_tokens = d.cache_creation_input_tokens + excluded.cache_creation_input_tokens,
    cache_read_input_tokens = d.cache_read_input_tokens + excluded.cache_read_input_tokens,
    cost_usd = d.cost_usd + excluded.cost_usd`;

/**
 * Inserts calls as lib/db/llm-calls.ts does (their trigger keeps the rollups), at chosen times;
 * `beforeTriggers` as the recorder did before the triggers kept every rollup.
 */
async function seedCalls(db: Database, calls: Call[], opts: { beforeTriggers?: boolean } = {}): Promise<void> {
  await db.transaction(async (tx) => {
    for (const c of calls) {
      await tx.query(
        opts.beforeTriggers ? INSERT_CALL_AND_DAILY : INSERT_CALL,
        [
          c.userId ?? LOCAL_USER_ID,
          c.sessionId ?? null,
          c.turn ?? null,
          c.kind ?? "chat",
          c.model ?? "claude-haiku-4-5",
          c.input,
          c.output ?? 0,
          c.write ?? 0,
          c.read ?? 0,
          c.cost,
          c.estimated ?? null,
          c.windowStart ?? null,
          c.capacity ?? null,
          c.at,
        ],
      );
    }
  });
}

interface Compaction {
  sessionId: string;
  at: string;
  atTurn: number;
  throughTurn: number;
  method?: "llm" | "extractive" | "sliding";
  pre: number;
  post: number;
  retention?: number;
  model?: string | null;
}

async function seedCompaction(db: Database, c: Compaction): Promise<string> {
  const [row] = await db.transaction((tx) =>
    tx.query<{ id: string }>(
      `insert into compaction_logs (session_id, user_id, trigger, method, from_turn, through_turn, at_seq, at_turn,
         prev_window_start_turn, summary, pre_tokens, post_tokens, reduction_percent, retention_rate, messages_condensed,
         duration_ms, model, created_at)
       values ($1, $2, 'auto', $3, 1, $4, 1, $5, 1, 'summary', $6, $7, $8, $9, 4, 10, $10, $11) returning id`,
      [
        c.sessionId,
        LOCAL_USER_ID,
        c.method ?? "llm",
        c.throughTurn,
        c.atTurn,
        c.pre,
        c.post,
        Math.round((100 * (c.pre - c.post)) / c.pre),
        c.retention ?? 0.95,
        c.model === undefined ? "claude-haiku-4-5" : c.model,
        c.at,
      ],
    ),
  );
  return row.id;
}

async function get<T = UsageReportJson>(query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: T; res: Response }> {
  const res = await usageRoute.GET(req("GET", `/api/usage${query}`, undefined, headers), undefined);
  const isCsv = (res.headers.get("content-type") ?? "").startsWith("text/csv");
  return { status: res.status, body: (isCsv ? await res.clone().text() : await res.clone().json()) as T, res };
}

async function summary(query: string): Promise<UsageSummaryJson> {
  const res = await summaryRoute.GET(req("GET", `/api/usage/summary${query}`), undefined);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as UsageSummaryJson;
}

const enc = encodeURIComponent;

/** A deterministic generator, so a failing range can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("grouped by day, exact for any range", () => {
  // Ten days of 2025 no other test uses: calls at random instants, a few right on midnights.
  const START = Date.parse("2025-03-01T00:00:00Z");
  const DAY = 86_400_000;
  const calls: Call[] = [];
  const r = rng(42);
  for (let i = 0; i < 240; i++) {
    const t = i % 40 === 0 ? START + Math.floor(r() * 10) * DAY : START + Math.floor(r() * 10 * DAY);
    const input = 100 + Math.floor(r() * 900);
    calls.push({
      at: new Date(t).toISOString(),
      kind: i % 7 === 0 ? "summary" : "chat",
      model: i % 3 === 0 ? "claude-sonnet-4-5" : "claude-haiku-4-5",
      input,
      output: Math.floor(r() * 300),
      write: Math.floor(r() * 200),
      read: Math.floor(r() * 2000),
      cost: Math.round(r() * 1e6) / 1e8,
      estimated: i % 7 === 0 ? null : input + Math.floor(r() * 200),
    });
  }

  function bruteForce(from: number, to: number) {
    const inRange = calls.filter((c) => Date.parse(c.at) >= from && Date.parse(c.at) < to);
    const days = new Map<string, { requests: number; input: number; read: number; cost: number }>();
    for (const c of inRange) {
      const d = c.at.slice(0, 10);
      const cur = days.get(d) ?? { requests: 0, input: 0, read: 0, cost: 0 };
      days.set(d, { requests: cur.requests + 1, input: cur.input + c.input, read: cur.read + (c.read ?? 0), cost: cur.cost + c.cost });
    }
    const errors = inRange
      .filter((c) => c.kind === "chat" && c.estimated != null)
      .map((c) => {
        const measured = c.input + (c.write ?? 0) + (c.read ?? 0);
        return (c.estimated! - measured) / measured;
      });
    return { inRange, days, errors };
  }

  it("seeds", async () => {
    await seedCalls(h.db, calls);
  });

  it("a range of whole days, of partial days, within one day and across midnight all match the calls", async () => {
    const cases: [string, string][] = [
      ["2025-03-01T00:00:00.000Z", "2025-03-11T00:00:00.000Z"], // whole days only
      ["2025-03-02T00:00:00.000Z", "2025-03-03T00:00:00.000Z"], // exactly one day
      ["2025-03-02T06:30:00.000Z", "2025-03-02T18:00:00.000Z"], // inside one day
      ["2025-03-02T23:59:59.999Z", "2025-03-03T00:00:00.001Z"], // two milliseconds across midnight
      ["2025-03-01T12:00:00.000Z", "2025-03-09T03:00:00.000Z"], // partial head and tail around whole days
      ["2025-03-03T00:00:00.000Z", "2025-03-05T17:45:00.000Z"], // whole head, partial tail
    ];
    for (let i = 0; i < 24; i++) {
      const a = START + Math.floor(r() * 10 * DAY);
      const b = START + Math.floor(r() * 10 * DAY);
      if (a !== b) cases.push([new Date(Math.min(a, b)).toISOString(), new Date(Math.max(a, b)).toISOString()]);
    }
    for (const [from, to] of cases) {
      const { status, body } = await get<UsageReportJson<DayRowJson>>(`?group_by=day&from=${enc(from)}&to=${enc(to)}`);
      expect(status).toBe(200);
      const want = bruteForce(Date.parse(from), Date.parse(to));
      const label = `${from} → ${to}`;
      expect(body.totals.requests, label).toBe(want.inRange.length);
      expect(body.totals.input_tokens, label).toBe(want.inRange.reduce((s, c) => s + c.input, 0));
      expect(body.totals.cost_usd, label).toBeCloseTo(want.inRange.reduce((s, c) => s + c.cost, 0), 9);
      expect(body.rows.map((d) => [d.day, d.requests, d.input_tokens, d.cache_read_input_tokens]), label).toEqual(
        [...want.days.entries()].sort().map(([d, v]) => [d, v.requests, v.input, v.read]),
      );
      expect(body.totals.calibration_calls, label).toBe(want.errors.length);
      if (want.errors.length > 0) {
        const mean = (100 * want.errors.reduce((s, e) => s + Math.abs(e), 0)) / want.errors.length;
        expect(body.totals.calibration_error_percent, label).toBeCloseTo(mean, 1);
      }
      expect(body.from).toBe(from);
      expect(body.to).toBe(to);
    }
  });

  it("per day: cache hit rate is cache reads over all input, calibration is the mean absolute error of chat calls", async () => {
    const { body } = await get<UsageReportJson<DayRowJson>>(`?from=2025-03-04&to=2025-03-05`);
    const day = calls.filter((c) => c.at.startsWith("2025-03-04"));
    const all = day.reduce((s, c) => s + c.input + (c.write ?? 0) + (c.read ?? 0), 0);
    const read = day.reduce((s, c) => s + (c.read ?? 0), 0);
    expect(body.rows).toHaveLength(1);
    expect(body.rows[0].cache_hit_rate).toBeCloseTo(read / all, 4);
    const errs = day.filter((c) => c.kind === "chat").map((c) => (c.estimated! - (c.input + c.write! + c.read!)) / (c.input + c.write! + c.read!));
    expect(body.rows[0].calibration_error_percent).toBeCloseTo((100 * errs.reduce((s, e) => s + Math.abs(e), 0)) / errs.length, 1);
    expect(body.rows[0].calibration_bias_percent).toBeCloseTo((100 * errs.reduce((s, e) => s + e, 0)) / errs.length, 1);
  });

  it("limit keeps the latest days and totals still cover the whole range", async () => {
    const { body } = await get<UsageReportJson<DayRowJson>>(`?from=2025-03-01&to=2025-03-11&limit=3`);
    expect(body.rows.map((d) => d.day)).toEqual(["2025-03-08", "2025-03-09", "2025-03-10"]);
    expect(body.truncated).toBe(true);
    expect(body.total_rows).toBe(10);
    expect(body.totals.requests).toBe(calls.length);
  });

  it("by model over the same calls", async () => {
    const { body } = await get<UsageReportJson<ModelRowJson>>(`?group_by=model&from=2025-03-01&to=2025-03-11`);
    const sonnet = calls.filter((c) => c.model === "claude-sonnet-4-5");
    const byModel = Object.fromEntries(body.rows.map((m) => [m.model, m]));
    expect(Object.keys(byModel).sort()).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
    expect(byModel["claude-sonnet-4-5"].requests).toBe(sonnet.length);
    expect(byModel["claude-sonnet-4-5"].cost_usd).toBeCloseTo(sonnet.reduce((s, c) => s + c.cost, 0), 9);
    // Most expensive first.
    expect(body.rows[0].cost_usd).toBeGreaterThanOrEqual(body.rows[1].cost_usd);
  });

  it("defaults to the last 30 UTC days, today included, up to now", async () => {
    const { body } = await get(``);
    expect(body.group_by).toBe("day");
    expect(body.to).toBeNull();
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    expect(Date.parse(body.from!)).toBe(today - 29 * 86_400_000);
    expect(body.rows.every((d) => (d as DayRowJson).day >= "2025-04-01")).toBe(true);
  });

  it("without `to`, counts every call up to now; with `to` just past now, the same", async () => {
    const at = new Date().toISOString();
    await seedCalls(h.db, [{ at, kind: "title", input: 1, cost: 0.125 }]);
    const open = await get(`?from=${enc(at)}`);
    const closed = await get(`?from=${enc(at)}&to=${enc(new Date(Date.now() + 1000).toISOString())}`);
    expect(open.body.totals.cost_usd).toBeGreaterThanOrEqual(0.125);
    expect(closed.body.totals).toEqual(open.body.totals);
  });
});

describe("cost by token kind", () => {
  it("splits each day's recorded cost in the proportions of the model's prices", async () => {
    // Haiku 4.5: $1 input, $5 output, $1.25 cache write, $0.10 cache read per million tokens.
    const usage = { input: 1000, output: 100, write: 400, read: 10_000 };
    const cost = (1000 * 1 + 100 * 5 + 400 * 1.25 + 10_000 * 0.1) / 1e6;
    await seedCalls(h.db, [
      { at: "2025-04-10T10:00:00Z", model: "claude-haiku-4-5", ...usage, cost },
      { at: "2025-04-11T10:00:00Z", model: "claude-haiku-4-5", ...usage, cost },
    ]);
    const { body } = await get<UsageReportJson<DayRowJson>>(`?from=2025-04-10&to=2025-04-11T12:00:00Z`);
    for (const day of body.rows) {
      expect(day.cost_by_kind!.input).toBeCloseTo(0.001, 9);
      expect(day.cost_by_kind!.output).toBeCloseTo(0.0005, 9);
      expect(day.cost_by_kind!.cache_write).toBeCloseTo(0.0005, 9);
      expect(day.cost_by_kind!.cache_read).toBeCloseTo(0.001, 9);
    }
    // The per-session rollup has no model to price: no split rather than a wrong one.
    const bySession = await get<UsageReportJson<SessionRowJson>>(`?group_by=session&from=2025-04-10&to=2025-04-11`);
    expect(bySession.body.rows[0].cost_by_kind).toBeNull();
  });
});

describe("grouped by session", () => {
  it("names sessions, keeps a deleted session's spending, ranks by cost and limits", async () => {
    const kept = await newSession({ title: "Kept, with \"quotes\"" });
    const gone = await newSession({ title: "Soon deleted" });
    const cheap = await newSession({ title: "Cheap" });
    const at = "2025-05-10T10:00:00.000Z";
    await seedCalls(h.db, [
      { at, sessionId: kept.id, turn: 1, input: 1000, cost: 0.02 },
      { at, sessionId: kept.id, turn: 2, input: 1000, cost: 0.03 },
      { at, sessionId: gone.id, turn: 1, input: 5000, cost: 0.09 },
      { at, sessionId: cheap.id, turn: 1, input: 10, cost: 0.001 },
      { at, sessionId: null, kind: "title", input: 50, cost: 0.0001 },
    ]);
    await seedCompaction(h.db, { sessionId: kept.id, at, atTurn: 2, throughTurn: 1, pre: 1000, post: 300 });
    const del = await oneSession.DELETE(req("DELETE", `/api/session/${gone.id}`), params({ id: gone.id }));
    expect(del.status).toBe(204);

    const { body } = await get<UsageReportJson<SessionRowJson>>(`?group_by=session&from=2025-05-10&to=2025-05-11`);
    expect(body.rows.map((s) => [s.session_id, s.title, s.deleted, s.requests, s.compactions])).toEqual([
      [gone.id, null, true, 1, 0],
      [kept.id, 'Kept, with "quotes"', false, 2, 1],
      [cheap.id, "Cheap", false, 1, 0],
      [null, null, false, 1, 0],
    ]);
    expect(body.rows[1].cost_usd).toBeCloseTo(0.05, 9);
    expect(body.totals).toMatchObject({ requests: 5, compactions: 1 });

    const top = await get<UsageReportJson<SessionRowJson>>(`?group_by=session&from=2025-05-10&to=2025-05-11&limit=2`);
    expect(top.body.rows.map((s) => s.session_id)).toEqual([gone.id, kept.id]);
    expect(top.body).toMatchObject({ truncated: true, total_rows: 4, totals: { requests: 5 } });

    // A deleted session's calls remain its own: filtering and the turn view still answer.
    const turns = await get<UsageReportJson<TurnRowJson>>(`?group_by=turn&session_id=${gone.id}`);
    expect(turns.status).toBe(200);
    expect(turns.body.rows.map((t) => t.turn_seq)).toEqual([1]);
    const filtered = await get(`?group_by=day&session_id=${gone.id}&from=2025-05-01&to=2025-06-01`);
    expect(filtered.body.totals.requests).toBe(1);
  });
});

describe("a session turn by turn", () => {
  it("shows measured fill, estimates, compactions (before → after) and slides", async () => {
    const s = await newSession({ title: "Long one" });
    const t = (m: number) => new Date(Date.parse("2025-06-01T08:00:00Z") + m * 60_000).toISOString();
    const cap = 100_000;
    await seedCalls(h.db, [
      { at: t(1), sessionId: s.id, turn: 1, input: 10_000, read: 0, cost: 0.01, estimated: 11_000, windowStart: 1, capacity: cap },
      { at: t(1), sessionId: s.id, turn: 1, kind: "title", input: 100, cost: 0.0001 },
      { at: t(2), sessionId: s.id, turn: 2, input: 2_000, read: 40_000, cost: 0.02, estimated: 40_000, windowStart: 1, capacity: cap },
      // A tool-use loop: two chat calls in turn 3; the later one saw the fuller window.
      { at: t(3), sessionId: s.id, turn: 3, input: 1_000, read: 60_000, cost: 0.02, estimated: 60_000, windowStart: 1, capacity: cap },
      { at: t(4), sessionId: s.id, turn: 3, input: 1_000, read: 79_000, cost: 0.02, estimated: 82_000, windowStart: 1, capacity: cap },
      { at: t(5), sessionId: s.id, turn: 3, kind: "summary", input: 60_000, output: 2_000, cost: 0.03 },
      // After the compaction (through turn 2): the window starts at 3.
      { at: t(6), sessionId: s.id, turn: 4, input: 30_000, cost: 0.04, estimated: 29_000, windowStart: 3, capacity: cap },
      // No compaction, but the start jumps from 3 to 4: a slide.
      { at: t(7), sessionId: s.id, turn: 5, input: 70_000, cost: 0.05, estimated: 70_000, windowStart: 4, capacity: cap },
    ]);
    const compactionId = await seedCompaction(h.db, { sessionId: s.id, at: t(5), atTurn: 3, throughTurn: 2, pre: 80_000, post: 25_000, retention: 0.9 });

    const { status, body } = await get<UsageReportJson<TurnRowJson>>(`?group_by=turn&session_id=${s.id}`);
    expect(status).toBe(200);
    expect(body.from).toBeNull();
    const rows = Object.fromEntries(body.rows.map((r) => [r.turn_seq, r]));
    expect(body.rows.map((r) => r.turn_seq)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[1]).toMatchObject({ requests: 2, context_tokens: 10_000, estimated_input_tokens: 11_000, fill_percent: 10, estimate_error_percent: 10 });
    expect(rows[3]).toMatchObject({ requests: 3, context_tokens: 80_000, fill_percent: 80, window_start_turn: 1, compactions: 1, slide: false });
    expect(rows[3].compaction_events).toEqual([
      expect.objectContaining({ id: compactionId, method: "llm", pre_tokens: 80_000, post_tokens: 25_000, retention_rate: 0.9, through_turn: 2 }),
    ]);
    expect(rows[4]).toMatchObject({ window_start_turn: 3, slide: false, slid_turns: 0, compactions: 0 });
    expect(rows[5]).toMatchObject({ window_start_turn: 4, slide: true, slid_turns: 1, fill_percent: 70 });
    expect(body.totals).toMatchObject({ requests: 8, compactions: 1 });
    expect(body.totals.cost_usd).toBeCloseTo(0.1901, 9);

    const last2 = await get<UsageReportJson<TurnRowJson>>(`?group_by=turn&session_id=${s.id}&limit=2`);
    expect(last2.body.rows.map((r) => r.turn_seq)).toEqual([4, 5]);
    expect(last2.body).toMatchObject({ truncated: true, total_rows: 5, totals: { requests: 8 } });

    const csv = await get<string>(`?group_by=turn&session_id=${s.id}&format=csv`);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "turn_seq,requests,input_tokens,output_tokens,cache_creation_input_tokens,cache_read_input_tokens,cost_usd," +
        "cost_input_usd,cost_output_usd,cost_cache_write_usd,cost_cache_read_usd,compactions,cache_hit_rate," +
        "calibration_calls,calibration_error_percent,calibration_bias_percent,context_tokens,estimated_input_tokens,capacity_tokens,fill_percent," +
        "window_start_turn,estimate_error_percent,slide,slid_turns,compaction_events",
    );
    expect(lines[3]).toMatch(/^3,3,.*,llm 80000→25000 retention 0\.9 \(applied\)$/);
    expect(lines[5]).toMatch(/,true,1,$/);
  });

  it("a real chat is recorded and shows up turn by turn, with its calibration rolled up", async () => {
    const s = await newSession({ title: "Real chat" });
    for (let i = 0; i < 3; i++) {
      const { res } = await sendJson(s.id, `Question ${i}: how do the RLS policies work with forks?`);
      expect(res.status).toBe(201);
      await idle(h, s.id);
    }
    const { body } = await get<UsageReportJson<TurnRowJson>>(`?group_by=turn&session_id=${s.id}`);
    expect(body.rows.map((r) => r.turn_seq)).toEqual([1, 2, 3]);
    for (const r of body.rows) {
      expect(r.context_tokens).toBeGreaterThan(0);
      expect(r.capacity_tokens).toBeGreaterThan(0);
      expect(r.estimated_input_tokens).toBeGreaterThan(0);
      expect(r.window_start_turn).toBe(1);
    }
    // Whole days come from the rollup: today's calibration there equals the calls'.
    const today = new Date().toISOString().slice(0, 10);
    const [rolled] = await h.db.transaction((tx) =>
      tx.query<{ n: number; abs: number }>(
        `select sum(calibration_calls)::float8 as n, sum(calibration_abs_error)::float8 as abs from llm_usage_daily where session_id = $1`,
        [s.id],
      ),
    );
    expect(rolled.n).toBe(3);
    const fromCalls = body.rows.reduce((acc, r) => acc + Math.abs(r.estimate_error_percent ?? 0) / 100, 0);
    expect(rolled.abs).toBeCloseTo(fromCalls, 3);
    const byDay = await get<UsageReportJson<DayRowJson>>(`?session_id=${s.id}&from=${today}`);
    expect(byDay.body.totals.calibration_calls).toBe(3);
  });
});

describe("CSV", () => {
  it("answers Accept: text/csv with a quoted attachment of the same rows", async () => {
    const s = await newSession({ title: '=cmd|"/c calc", 2\nlines' });
    await seedCalls(h.db, [{ at: "2025-07-01T12:00:00Z", sessionId: s.id, turn: 1, input: 100, output: 5, cost: 0.0012 }]);
    const { status, body, res } = await get<string>(`?group_by=session&from=2025-07-01&to=2025-07-02`, { accept: "text/csv" });
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="usage-by-session-2025-07-01-to-2025-07-02.csv"');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(body).toBe(
      "session_id,title,deleted,requests,input_tokens,output_tokens,cache_creation_input_tokens,cache_read_input_tokens,cost_usd," +
        "cost_input_usd,cost_output_usd,cost_cache_write_usd,cost_cache_read_usd,compactions," +
        "cache_hit_rate,calibration_calls,calibration_error_percent,calibration_bias_percent\r\n" +
        `${s.id},"'=cmd|""/c calc"", 2\nlines",false,1,100,5,0,0,0.0012,,,,,0,0,0,,\r\n`,
    );
    const json = await get(`?group_by=session&from=2025-07-01&to=2025-07-02`, { accept: "application/json" });
    expect(json.res.headers.get("content-type")).toContain("application/json");
    const day = await get<string>(`?from=2025-07-01&to=2025-07-02&format=csv`);
    expect(day.body.split("\r\n")[1]).toMatch(/^2025-07-01,1,100,5,/);
  });
});

describe("validation", () => {
  it.each([
    ["?group_by=turn", "session_id"],
    ["?group_by=week", "group_by"],
    ["?from=yesterday", "from"],
    ["?from=2025-07-01T10:00:00", "from"], // no offset: ambiguous
    ["?to=2025-13-01", "to"],
    ["?from=2025-07-02&to=2025-07-01", "from"],
    ["?from=2025-07-01&to=2025-07-01", "from"],
    ["?limit=0", "limit"],
    ["?limit=abc", "limit"],
    ["?session_id=nope", "session_id"],
    ["?format=xml", "format"],
    ["?colour=blue", "colour"],
  ])("%s is a 400 naming %s", async (query, field) => {
    const { status, body } = await get<{ error: { code: string; message: string } }>(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain(field);
  });

  it("an unknown session is a 404, with the same answer for every id", async () => {
    const id = randomUUID();
    const { status, body } = await get<{ error: { code: string } }>(`?group_by=turn&session_id=${id}`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("not_found");
    const summaryBad = await summaryRoute.GET(req("GET", "/api/usage/summary?limit=1000"), undefined);
    expect(summaryBad.status).toBe(400);
  });
});

describe("the summary", () => {
  it("gives days, the most expensive sessions and the compactions of the range in one answer", async () => {
    const a = await newSession({ title: "Summary A" });
    const b = await newSession({ title: "Summary B" });
    await seedCalls(h.db, [
      { at: "2025-08-01T10:00:00Z", sessionId: a.id, turn: 1, input: 100, read: 300, cost: 0.01, estimated: 420 },
      { at: "2025-08-02T10:00:00Z", sessionId: b.id, turn: 1, input: 100, read: 100, cost: 0.02, estimated: 180 },
      { at: "2025-08-02T11:00:00Z", sessionId: b.id, turn: 2, input: 100, cost: 0.02 },
    ]);
    await seedCompaction(h.db, { sessionId: a.id, at: "2025-08-01T11:00:00Z", atTurn: 1, throughTurn: 1, pre: 9_000, post: 2_000, method: "extractive", model: null });
    const s = await summary("?from=2025-08-01&to=2025-08-03T00:00:00Z&limit=1");
    expect(s.has_usage).toBe(true);
    expect(s.days.map((d) => [d.day, d.requests, d.compactions])).toEqual([
      ["2025-08-01", 1, 1],
      ["2025-08-02", 2, 0],
    ]);
    expect(s.days[0].cache_hit_rate).toBeCloseTo(0.75, 4);
    expect(s.days[0].calibration_error_percent).toBeCloseTo(5, 4);
    expect(s.days[1].calibration_bias_percent).toBeCloseTo(-10, 4);
    expect(s.top_sessions.map((t) => [t.session_id, t.title])).toEqual([[b.id, "Summary B"]]);
    expect(s.compactions).toEqual([
      expect.objectContaining({ session_id: a.id, title: "Summary A", method: "extractive", pre_tokens: 9_000, post_tokens: 2_000, model: null }),
    ]);
    expect(s.totals).toMatchObject({ requests: 3, compactions: 1 });
  });

  it("says whether there is any usage at all, for the empty state", async () => {
    const fresh = randomUUID();
    await h.db.transaction((tx) => tx.query("insert into auth.users (id, email) values ($1, 'fresh@example.com')", [fresh]));
    const empty = await usageSummary(fresh, { limit: 10, compaction_limit: 200 });
    expect(empty).toMatchObject({ has_usage: false, offline: false, days: [], top_sessions: [], compactions: [], totals: { requests: 0, cost_usd: 0 } });
    const old = await summary("?from=2001-01-01&to=2001-02-01");
    expect(old).toMatchObject({ has_usage: true, days: [] });
    // Without an API key the empty state can say why: offline replies are not billed.
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect((await usageSummary(fresh, { limit: 10, compaction_limit: 200 })).offline).toBe(true);
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
    }
  });
});

describe("a deleted user", () => {
  it("a user's deletion takes their calls and every rollup of them with it, and leaves others' alone", async () => {
    const gone = randomUUID();
    await h.db.transaction((tx) => tx.query("insert into auth.users (id, email) values ($1, 'gone@example.com')", [gone]));
    await withUser(gone, (tx) =>
      recordLlmCall(tx, gone, { sessionId: null, turnSeq: null, kind: "title", model: "claude-haiku-4-5", usage: { input_tokens: 10, output_tokens: 2 } }),
    );
    const rows = (user: string) =>
      h.db.transaction(async (tx) => {
        const n: number[] = [];
        for (const t of ["llm_calls", "llm_usage_daily", "llm_usage_day_models", "llm_usage_day_sessions"]) {
          n.push(Number((await tx.query<{ n: number }>(`select count(*)::int as n from ${t} where user_id = $1`, [user]))[0].n));
        }
        return n;
      });
    expect(await rows(gone)).toEqual([1, 1, 1, 1]);
    const mine = await rows(LOCAL_USER_ID);
    await h.db.transaction((tx) => tx.query("delete from auth.users where id = $1", [gone]));
    expect(await rows(gone)).toEqual([0, 0, 0, 0]);
    expect(await rows(LOCAL_USER_ID)).toEqual(mine);
  });
});

describe("tenancy", () => {
  it("another user sees none of the local user's usage, and the local user's sessions are not found for them", async () => {
    const other = randomUUID();
    await h.db.transaction((tx) => tx.query("insert into auth.users (id, email) values ($1, 'other@example.com')", [other]));
    const mine = await newSession({ title: "Mine only" });
    await seedCalls(h.db, [
      { at: "2025-09-01T10:00:00Z", sessionId: mine.id, turn: 1, input: 100, cost: 0.5 },
      { at: "2025-09-01T10:00:00Z", sessionId: null, kind: "title", input: 7, cost: 0.25, userId: other },
    ]);
    await recordLlmCallAs(other);
    const range = { from: new Date("2025-09-01T00:00:00Z"), to: new Date("2025-09-02T00:00:00Z"), limit: 1000 };
    for (const group_by of ["day", "session", "model"] as const) {
      const r = await usageReport(other, { group_by, ...range });
      expect(r.totals.requests, group_by).toBe(1);
      expect(r.totals.input_tokens, group_by).toBe(7);
      expect(JSON.stringify(r)).not.toContain("Mine only");
    }
    await expect(usageReport(other, { group_by: "turn", session_id: mine.id, limit: 1000 })).rejects.toMatchObject({ status: 404 });
    const s = await usageSummary(other, { from: range.from, to: range.to, limit: 10, compaction_limit: 10 });
    expect(s.totals.cost_usd).toBeCloseTo(0.25, 9);
    expect(JSON.stringify(s)).not.toContain("Mine only");
    // And the other way round: the local user's figures do not include the other user's call.
    const local = await get(`?from=2025-09-01&to=2025-09-02`);
    expect(local.body.totals.cost_usd).toBeCloseTo(0.5, 9);
  });
});

/** A call recorded by the real recorder as another user, through RLS. */
async function recordLlmCallAs(userId: string): Promise<void> {
  await withUser(userId, (tx) =>
    recordLlmCall(tx, userId, {
      sessionId: null,
      turnSeq: null,
      kind: "title",
      model: "claude-haiku-4-5",
      usage: { input_tokens: 3, output_tokens: 1 },
    }),
  );
}

describe("the rollups", () => {
  it("agree with the calls they sum, per day and model, per day and session, and in calibration, before and after the fold", async () => {
    const diff = () => h.db.transaction((tx) =>
      tx.query<{ what: string; n: number }>(
        `with dm as (
           -- Each call statement adds rows of its own until folded (migration 20261128000010): a key's figures are its rows' sums.
           select user_id, day, model, sum(requests)::int as requests, sum(input_tokens)::bigint as input_tokens,
             sum(output_tokens)::bigint as output_tokens, sum(cache_creation_input_tokens)::bigint as cache_creation_input_tokens,
             sum(cache_read_input_tokens)::bigint as cache_read_input_tokens, sum(cost_usd) as cost_usd,
             sum(calibration_calls)::int as calibration_calls, sum(calibration_abs_error) as calibration_abs_error,
             sum(compactions)::int as compactions
           from llm_usage_day_models group by 1, 2, 3
         ), calls as (
           select user_id, (created_at at time zone 'UTC')::date as day, session_id, model, kind, input_tokens, output_tokens,
             cache_creation_input_tokens as w, cache_read_input_tokens as r, cost_usd,
             ${CALL_ERROR_SQL} as err
           from llm_calls
         ), m as (
           select user_id, day, model, count(*)::int as n, sum(input_tokens)::bigint as i, sum(output_tokens)::bigint as o,
             sum(w)::bigint as w, sum(r)::bigint as r, round(sum(cost_usd)::numeric, 9) as c, count(err)::int as cn,
             round(coalesce(sum(abs(err)), 0)::numeric, 9) as ca
           from calls group by 1, 2, 3
         ), s as (
           select user_id, day, session_id, count(*)::int as n, sum(input_tokens)::bigint as i, round(sum(cost_usd)::numeric, 9) as c,
             count(err)::int as cn
           from calls group by 1, 2, 3
         ), d as (
           select user_id, day, session_id, model, kind, count(err)::int as cn, round(coalesce(sum(err), 0)::numeric, 9) as ce
           from calls group by 1, 2, 3, 4, 5
         )
         select 'day_models' as what, count(*)::int as n from (
           (select * from m except select user_id, day, model, requests, input_tokens, output_tokens, cache_creation_input_tokens,
              cache_read_input_tokens, round(cost_usd::numeric, 9), calibration_calls, round(calibration_abs_error::numeric, 9)
            from dm)
           union all
           (select user_id, day, model, requests, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens,
              round(cost_usd::numeric, 9), calibration_calls, round(calibration_abs_error::numeric, 9) from dm
            where requests > 0
            except select * from m)) x
         union all
         select 'day_sessions', count(*)::int from (
           (select * from s except select user_id, day, session_id, requests, input_tokens, round(cost_usd::numeric, 9), calibration_calls
            from llm_usage_day_sessions)
           union all
           (select user_id, day, session_id, requests, input_tokens, round(cost_usd::numeric, 9), calibration_calls from llm_usage_day_sessions
            where requests > 0
            except select * from s)) x
         union all
         select 'compactions by model', count(*)::int from (
           (select user_id, (created_at at time zone 'UTC')::date, model, count(*)::int from compaction_logs group by 1, 2, 3
            except select user_id, day, model, compactions from dm)
           union all
           (select user_id, day, model, compactions from dm where compactions > 0
            except select user_id, (created_at at time zone 'UTC')::date, model, count(*)::int from compaction_logs group by 1, 2, 3)) x
         union all
         select 'compactions by session', count(*)::int from (
           (select user_id, (created_at at time zone 'UTC')::date, session_id, count(*)::int from compaction_logs group by 1, 2, 3
            except select user_id, day, session_id, compactions from llm_usage_day_sessions)
           union all
           (select user_id, day, session_id, compactions from llm_usage_day_sessions where compactions > 0
            except select user_id, (created_at at time zone 'UTC')::date, session_id, count(*)::int from compaction_logs group by 1, 2, 3)) x
         union all
         select 'daily calibration', count(*)::int from (
           select * from d except select user_id, day, session_id, model, kind, calibration_calls, round(calibration_error::numeric, 9)
           from llm_usage_daily) x`,
      ),
    );
    const agreed = {
      day_models: 0,
      day_sessions: 0,
      "compactions by model": 0,
      "compactions by session": 0,
      "daily calibration": 0,
    };
    expect(Object.fromEntries((await diff()).map((r) => [r.what, r.n]))).toEqual(agreed);
    // Folded, each key is one row, with the same sums; a second fold finds nothing to do.
    expect(await foldPendingRollups(h.db)).toBeGreaterThan(0);
    expect(Object.fromEntries((await diff()).map((r) => [r.what, r.n]))).toEqual(agreed);
    const [shape] = await h.db.transaction((tx) =>
      tx.query<{ unfolded: number; repeated: number }>(
        `select (select count(*) from llm_usage_day_models where not folded)::int as unfolded,
           (select count(*) from (select 1 from llm_usage_day_models group by user_id, day, model having count(*) > 1) x)::int as repeated`,
      ),
    );
    expect(shape).toEqual({ unfolded: 0, repeated: 0 });
    expect(await foldPendingRollups(h.db)).toBe(0);
    const [counts] = await h.db.transaction((tx) =>
      tx.query<{ calls: number; models: number }>(
        "select (select count(*) from llm_calls)::int as calls, (select sum(requests) from llm_usage_day_models)::int as models",
      ),
    );
    expect(counts.calls).toBeGreaterThan(250);
    expect(counts.models).toBe(counts.calls);
  });

  it("a database with calls recorded before the usage migration is backfilled by it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tk-migrations-"));
    const all = (await readdir(MIGRATIONS)).filter((f) => f.endsWith(".sql")).sort();
    const usage = all.indexOf("20261123000003_usage_indexes.sql");
    expect(usage).toBeGreaterThan(0);
    const pg = await PGlite.create("memory://", { extensions: { vector } });
    const db = fromPGlite(pg);
    try {
      await applyEmbeddedAuth(db);
      for (const f of all.slice(0, usage)) await copyFile(path.join(MIGRATIONS, f), path.join(dir, f));
      await migrate(db, dir);
      const user = randomUUID();
      await db.transaction((tx) => tx.query("insert into auth.users (id, email) values ($1, 'early@example.com')", [user]));
      await seedCalls(db, [
        { at: "2025-10-01T10:00:00Z", userId: user, input: 100, read: 100, cost: 0.1, estimated: 220 },
        { at: "2025-10-01T11:00:00Z", userId: user, input: 100, cost: 0.2, estimated: 90 },
        { at: "2025-10-02T11:00:00Z", userId: user, kind: "title", input: 5, cost: 0.3 },
      ], { beforeTriggers: true });
      for (const f of all.slice(usage)) await copyFile(path.join(MIGRATIONS, f), path.join(dir, f));
      expect(await migrate(db, dir)).toEqual(all.slice(usage));
      const rows = await db.transaction((tx) =>
        tx.query<{ day: string; requests: number; cost: number; n: number; abs: number }>(
          `select day::text, requests, cost_usd as cost, calibration_calls as n, calibration_abs_error as abs
           from llm_usage_day_models where user_id = $1 order by day`,
          [user],
        ),
      );
      expect(rows).toEqual([
        { day: "2025-10-01", requests: 2, cost: expect.closeTo(0.3, 9), n: 2, abs: expect.closeTo(0.2, 9) },
        { day: "2025-10-02", requests: 1, cost: expect.closeTo(0.3, 9), n: 0, abs: 0 },
      ]);
      const [daily] = await db.transaction((tx) =>
        tx.query<{ n: number; err: number }>(
          "select sum(calibration_calls)::int as n, sum(calibration_error)::float8 as err from llm_usage_daily where user_id = $1",
          [user],
        ),
      );
      expect(daily).toEqual({ n: 2, err: expect.closeTo(0, 9) });
      // And calls recorded afterwards are counted by the trigger, once.
      await seedCalls(db, [{ at: "2025-10-02T12:00:00Z", userId: user, input: 10, cost: 0.5, estimated: 11 }]);
      const [after] = await db.transaction((tx) =>
        tx.query<{ requests: number }>("select requests from llm_usage_day_sessions where user_id = $1 and day = '2025-10-02'", [user]),
      );
      expect(after.requests).toBe(2);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
