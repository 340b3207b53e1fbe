import { DEFAULT_SETTINGS } from "@/lib/contract/settings";
import { describe, it, expect } from "vitest";
import { breakdownOf, computeStatus, sessionTokens, type StatusInput } from "@/lib/context/status";
import { requireModel } from "@/lib/models";
import type { ContextBreakdown } from "@/lib/contract";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const MEASURED_AT = new Date("2026-03-01T11:59:00.000Z");

function breakdown(parts: Partial<ContextBreakdown>): ContextBreakdown {
  return { system: 0, tools: 0, summary: 0, memory: 0, canvas: 0, messages: 0, files: 0, ...parts };
}

// claude-sonnet-4-5 with defaults: W 200,000, R 40,000, S 20,000, C 140,000.
function input(over: Partial<StatusInput>): StatusInput {
  return {
    sessionId: "s1",
    model: requireModel("claude-sonnet-4-5"),
    settings: { ...DEFAULT_SETTINGS, compaction_threshold: 0.8, output_reservation: 0.2, safety_buffer: 0.1, model: "claude-sonnet-4-5" },
    breakdownRaw: breakdown({ system: 1000, messages: 9000 }),
    calibration: 1.1,
    measured: null,
    avgTurnTokens: 1000,
    spend: { costUsd: 0, billedInputTokens: 0, cacheReadTokens: 0 },
    today: { tokens: 0, budget: null },
    now: NOW,
    ...over,
  };
}

const sum = (b: ContextBreakdown) => b.system + b.tools + b.summary + b.memory + b.canvas + b.messages;

describe("computeStatus without a measurement", () => {
  const s = computeStatus(input({}));

  it("calibrates the raw estimate", () => {
    expect(s.current_tokens).toBe(11_000);
    expect(s.measured).toBe(false);
    expect(s.measured_tokens).toBe(0);
    expect(s.estimated_tokens).toBe(11_000);
    expect(s.calibration_factor).toBe(1.1);
  });

  it("reports the capacity model", () => {
    expect(s).toMatchObject({
      session_id: "s1",
      model: "claude-sonnet-4-5",
      max_tokens: 200_000,
      reserved_tokens: 40_000,
      safety_tokens: 20_000,
      capacity_tokens: 140_000,
      available_tokens: 129_000,
      usage_percent: 7.9,
      status: "normal",
      threshold_percent: 80,
      last_updated: NOW.toISOString(),
    });
  });

  it("scales the breakdown to sum to used", () => {
    expect(s.breakdown).toEqual(breakdown({ system: 1100, messages: 9900 }));
  });

  it("counts remaining turns of average (calibrated) size", () => {
    expect(s.estimated_messages_remaining).toBe(Math.floor(129_000 / 1100));
    expect(s.estimated_messages_remaining).toBe(117);
  });
});

describe("computeStatus with a measurement", () => {
  it("is fully measured when nothing changed since the request", () => {
    const s = computeStatus(input({ measured: { tokens: 12_000, rawAtMeasure: 10_000, at: MEASURED_AT } }));
    expect(s.current_tokens).toBe(12_000);
    expect(s.measured).toBe(true);
    expect(s.measured_tokens).toBe(12_000);
    expect(s.estimated_tokens).toBe(0);
    expect(s.last_updated).toBe(MEASURED_AT.toISOString());
    expect(sum(s.breakdown)).toBe(12_000);
  });

  it("adds the calibrated growth since the measurement", () => {
    const s = computeStatus(
      input({
        breakdownRaw: breakdown({ system: 1000, messages: 9500 }),
        calibration: 1.2,
        measured: { tokens: 12_000, rawAtMeasure: 10_000, at: MEASURED_AT },
      }),
    );
    expect(s.current_tokens).toBe(12_600);
    expect(s.measured).toBe(false);
    expect(s.measured_tokens).toBe(12_000);
    expect(s.estimated_tokens).toBe(600);
  });

  it("subtracts what slid out since the measurement", () => {
    const s = computeStatus(
      input({
        breakdownRaw: breakdown({ system: 1000, messages: 3000 }),
        calibration: 1.2,
        measured: { tokens: 12_000, rawAtMeasure: 10_000, at: MEASURED_AT },
      }),
    );
    expect(s.current_tokens).toBe(4800);
    expect(s.measured_tokens).toBe(4800);
    expect(s.estimated_tokens).toBe(0);
    expect(s.measured).toBe(false);
  });

  it("never goes below zero", () => {
    const s = computeStatus(
      input({ breakdownRaw: breakdown({}), calibration: 1.2, measured: { tokens: 1000, rawAtMeasure: 10_000, at: MEASURED_AT } }),
    );
    expect(s.current_tokens).toBe(0);
    expect(s.measured_tokens).toBe(0);
    expect(s.estimated_tokens).toBe(0);
    expect(s.breakdown).toEqual(breakdown({}));
  });
});

describe("computeStatus colours and limits", () => {
  const at = (messages: number) => computeStatus(input({ breakdownRaw: breakdown({ messages }), calibration: 1 }));

  it("switches to warning at 70% and critical at 85% of capacity", () => {
    expect([at(97_860).usage_percent, at(97_860).status]).toEqual([69.9, "normal"]);
    expect([at(98_000).usage_percent, at(98_000).status]).toEqual([70, "warning"]);
    expect([at(118_860).usage_percent, at(118_860).status]).toEqual([84.9, "warning"]);
    expect([at(119_000).usage_percent, at(119_000).status]).toEqual([85, "critical"]);
  });

  it("never reports negative availability or remaining turns", () => {
    const s = at(150_000);
    expect(s.usage_percent).toBe(107.1);
    expect(s.available_tokens).toBe(0);
    expect(s.estimated_messages_remaining).toBe(0);
    expect(s.status).toBe("critical");
  });

  it("guards against a zero average turn", () => {
    expect(computeStatus(input({ avgTurnTokens: 0, calibration: 1 })).estimated_messages_remaining).toBe(130_000);
  });

  it("uses a 1M model's capacity", () => {
    const s = computeStatus(
      input({
        model: requireModel("claude-sonnet-5-5"),
        breakdownRaw: breakdown({ messages: 386_000 }),
        calibration: 1,
      }),
    );
    expect(s.capacity_tokens).toBe(772_000);
    expect(s.usage_percent).toBe(50);
  });

  it("keeps the breakdown summing to used with awkward rounding", () => {
    const s = computeStatus(
      input({ breakdownRaw: breakdown({ system: 333, tools: 333, summary: 333, memory: 1, canvas: 7, messages: 1 }), calibration: 1.37 }),
    );
    expect(s.current_tokens).toBe(Math.ceil(1008 * 1.37));
    expect(sum(s.breakdown)).toBe(s.current_tokens);
    expect(Object.values(s.breakdown).every((v) => v >= 0)).toBe(true);
    expect(s.breakdown.system).toBe(Math.floor((333 * s.current_tokens) / 1008));
  });

  it("shows the threshold as a percent", () => {
    const s = computeStatus(
      input({ settings: { ...DEFAULT_SETTINGS, compaction_threshold: 0.55, output_reservation: 0.2, safety_buffer: 0.1, model: "claude-sonnet-4-5" } }),
    );
    expect(s.threshold_percent).toBe(55);
  });
});

describe("the session's spend and its one token figure", () => {
  it("reports cost and the share of input read from cache", () => {
    const s = computeStatus(input({ spend: { costUsd: 0.42, billedInputTokens: 10_000, cacheReadTokens: 7_500 } }));
    expect(s.cost_usd).toBe(0.42);
    expect(s.cache_read_share).toBe(0.75);
    expect(computeStatus(input({})).cache_read_share).toBe(0);
  });

  it("carries the user's tokens today and the daily budget, or null without one", () => {
    const s = computeStatus(input({ today: { tokens: 120_000, budget: 1_000_000 } }));
    expect([s.tokens_today, s.daily_token_budget]).toEqual([120_000, 1_000_000]);
    expect(computeStatus(input({})).daily_token_budget).toBeNull();
  });

  it("sessionTokens from a row's counters equals the status's current_tokens, measured or not", () => {
    const row = { system_tokens: 500, memory_tokens: 200, summary_tokens: 300, tail_tokens: 8000, pinned_tokens: 1000, canvas_tokens: 400, measured_tokens: null, measured_raw_tokens: null, measured_at: null };
    const raw = breakdown({ system: 500, tools: 250, memory: 200, summary: 300, canvas: 400, messages: 9000 });
    expect(sessionTokens(row, 1.4, 250)).toBe(computeStatus(input({ breakdownRaw: raw, calibration: 1.4 })).current_tokens);
    const measuredRow = { ...row, measured_tokens: 12_345, measured_raw_tokens: 9_000, measured_at: MEASURED_AT };
    const measured = { tokens: 12_345, rawAtMeasure: 9_000, at: MEASURED_AT };
    expect(sessionTokens(measuredRow, 1.3, 250)).toBe(computeStatus(input({ breakdownRaw: raw, calibration: 1.3, measured })).current_tokens);
    // The canvas counts: the same row with an empty canvas is 400 raw tokens smaller.
    expect(sessionTokens({ ...row, canvas_tokens: 0 }, 1, 250)).toBe(sessionTokens(row, 1, 250) - 400);
    expect(breakdownOf(row, 250).canvas).toBe(400);
  });
});
