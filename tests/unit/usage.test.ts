import { describe, expect, it } from "vitest";
import { markTurns, type TurnCall } from "@/lib/usage/marks";
import { ZERO_SUMS } from "@/lib/usage/metrics";
import { OPEN_END, resolveRange, splitRange } from "@/lib/usage/range";
import type { CompactionMarkJson } from "@/lib/contract";
import { usageCsv } from "@/lib/usage/csv";

const d = (iso: string) => new Date(iso);

describe("splitRange", () => {
  it("reads whole days from the rollup and the partial days at either end from the calls", () => {
    const s = splitRange({ from: d("2026-01-01T06:00:00Z"), to: d("2026-01-04T12:00:00Z") });
    expect(s.wholeDays).toEqual({ fromDay: "2026-01-02", toDay: "2026-01-04" });
    expect(s.head).toEqual({ from: d("2026-01-01T06:00:00Z"), to: d("2026-01-02T00:00:00Z") });
    expect(s.tail).toEqual({ from: d("2026-01-04T00:00:00Z"), to: d("2026-01-04T12:00:00Z") });
  });

  it("a range on midnights has empty edges", () => {
    const s = splitRange({ from: d("2026-01-01T00:00:00Z"), to: d("2026-01-03T00:00:00Z") });
    expect(s.wholeDays).toEqual({ fromDay: "2026-01-01", toDay: "2026-01-03" });
    expect(s.head.from).toEqual(s.head.to);
    expect(s.tail.from).toEqual(s.tail.to);
  });

  it("a range without a whole day inside reads only calls, across midnight too", () => {
    for (const [from, to] of [
      ["2026-01-01T06:00:00Z", "2026-01-01T07:00:00Z"],
      ["2026-01-01T23:00:00Z", "2026-01-02T01:00:00Z"],
      ["2026-01-01T00:00:00Z", "2026-01-01T23:59:59.999Z"],
    ]) {
      const s = splitRange({ from: d(from), to: d(to) });
      expect(s.wholeDays.fromDay).toBe(s.wholeDays.toDay);
      expect(s.head).toEqual({ from: d(from), to: d(to) });
      expect(s.tail.from).toEqual(s.tail.to);
    }
  });

  it("defaults to the 30 UTC days up to now (today included), and an open end leaves no partial day", () => {
    const now = d("2026-03-31T10:00:00Z");
    expect(resolveRange({}, now)).toEqual({ from: d("2026-03-02T00:00:00Z"), to: OPEN_END });
    expect(resolveRange({ to: d("2026-02-01T12:00:00Z") }, now).from).toEqual(d("2026-01-03T00:00:00Z"));
    const s = splitRange(resolveRange({ from: d("2026-03-30T12:00:00Z") }, now));
    expect(s.wholeDays).toEqual({ fromDay: "2026-03-31", toDay: "9999-12-31" });
    expect(s.tail.from).toEqual(s.tail.to);
  });
});

const turn = (turnSeq: number, windowStartTurn: number | null, chatAt: string | null, ctx = 1000): TurnCall => ({
  turnSeq,
  sums: { ...ZERO_SUMS, requests: 1 },
  contextTokens: chatAt ? ctx : null,
  estimatedInputTokens: chatAt ? ctx : null,
  capacityTokens: chatAt ? 10_000 : null,
  windowStartTurn,
  chatAt: chatAt ? d(chatAt) : null,
});

const compaction = (atTurn: number, throughTurn: number, createdAt: string): CompactionMarkJson => ({
  id: `c${atTurn}`,
  created_at: createdAt,
  at_turn: atTurn,
  trigger: "auto",
  method: "llm",
  status: "applied",
  from_turn: 1,
  through_turn: throughTurn,
  pre_tokens: 9000,
  post_tokens: 3000,
  reduction_percent: 66.67,
  retention_rate: 1,
});

describe("markTurns", () => {
  it("a start moved by a compaction is no slide; moved further than it explains, the rest slid", () => {
    const rows = markTurns(
      [turn(1, 1, "2026-01-01T00:01:00Z"), turn(2, 1, "2026-01-01T00:02:00Z"), turn(3, 3, "2026-01-01T00:04:00Z"), turn(4, 6, "2026-01-01T00:05:00Z")],
      [compaction(2, 2, "2026-01-01T00:03:00Z")],
    );
    expect(rows.map(({ row: r, sums }) => [r.turn_seq, r.slide, r.slid_turns, sums.compactions])).toEqual([
      [1, false, 0, 0],
      [2, false, 0, 1],
      [3, false, 0, 0],
      [4, true, 3, 0],
    ]);
    expect(rows[0].row.fill_percent).toBe(10);
  });

  it("a compaction at a turn without calls (offline) still gets its row; turns without a chat call do not break the chain", () => {
    const rows = markTurns([turn(1, 1, "2026-01-01T00:01:00Z"), turn(2, null, null), turn(3, 2, "2026-01-01T00:03:00Z")], [compaction(5, 3, "2026-01-01T00:09:00Z")]);
    expect(rows.map(({ row: r }) => [r.turn_seq, r.slide, r.compaction_events.length])).toEqual([
      [1, false, 0],
      [2, false, 0],
      [3, true, 0],
      [5, false, 1],
    ]);
    expect(rows[3]).toMatchObject({ row: { context_tokens: null, fill_percent: null }, sums: { requests: 0, compactions: 1 } });
  });
});

describe("usageCsv", () => {
  it("quotes commas, quotes and newlines and defuses formulas in text cells only", () => {
    const csv = usageCsv({
      group_by: "model",
      from: null,
      to: null,
      session_id: null,
      total_rows: 1,
      truncated: false,
      totals: {} as never,
      rows: [{ model: "-a,b", requests: 1, input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0.5, cost_by_kind: { input: 0.1, output: 0.4, cache_write: 0, cache_read: 0 }, compactions: 0, cache_hit_rate: null, calibration_calls: 1, calibration_error_percent: 2, calibration_bias_percent: -2 }],
    });
    expect(csv.split("\r\n")[1]).toBe(`"'-a,b",1,2,3,0,0,0.5,0.1,0.4,0,0,0,,1,2,-2`);
  });
});
