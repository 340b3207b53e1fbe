import { describe, expect, it } from "vitest";
import {
  autoCompactThresholdPercent,
  breakpointCount,
  cacheBreak,
  CACHE_TTL_MS,
  COLD_CACHE_EARLY_POINTS,
  isCacheWarm,
  markMessages,
  MAX_BREAKPOINTS,
  planCacheBreakpoints,
  systemBlocks,
} from "@/lib/context/prompt-cache";
import type { ApiMessage } from "@/lib/context/types";

const text = (role: "user" | "assistant", chars: number): ApiMessage => ({ role, content: [{ type: "text", text: "x".repeat(chars) }] });
/** A conversation of `turns` user/assistant pairs and a new user message, each message ~`tokens` raw tokens. */
function conversation(turns: number, tokens: number): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (let i = 0; i < turns; i++) out.push(text("user", tokens * 4), text("assistant", tokens * 4));
  out.push(text("user", tokens * 4));
  return out;
}

describe("planCacheBreakpoints", () => {
  it("marks the stable system part, the summary, the last message and the end of the previous request", () => {
    const messages = conversation(5, 500);
    const plan = planCacheBreakpoints({ baseTokens: 2000, summaryTokens: 1500, messages, factor: 1, minCacheTokens: 1024 });
    expect(plan).toEqual({ base: true, summary: true, messages: [messages.length - 3, messages.length - 1] });
    expect(breakpointCount(plan)).toBe(MAX_BREAKPOINTS);
  });

  it("never marks a prefix shorter than the model's minimum, counting everything before it", () => {
    // Base alone is short; base + summary clears the minimum, so only the summary is marked.
    const small = planCacheBreakpoints({ baseTokens: 300, summaryTokens: 900, messages: conversation(1, 10), factor: 1, minCacheTokens: 1024 });
    expect(small.base).toBe(false);
    expect(small.summary).toBe(true);
    // A short first exchange: nothing at all is worth caching yet.
    const first = planCacheBreakpoints({ baseTokens: 100, summaryTokens: 0, messages: conversation(0, 50), factor: 1, minCacheTokens: 4096 });
    expect(breakpointCount(first)).toBe(0);
  });

  it("sizes messages with the calibration factor", () => {
    const messages = conversation(0, 800);
    const args = { baseTokens: 0, summaryTokens: 0, messages, minCacheTokens: 1024 };
    expect(planCacheBreakpoints({ ...args, factor: 1 }).messages).toEqual([]);
    expect(planCacheBreakpoints({ ...args, factor: 1.4 }).messages).toEqual([0]);
  });

  it("marks the previous request's end only when it was a user message (never an assistant's)", () => {
    const messages = [text("user", 8000), text("assistant", 8000)];
    expect(planCacheBreakpoints({ baseTokens: 0, summaryTokens: 0, messages, factor: 1, minCacheTokens: 1024 }).messages).toEqual([1]);
  });
});

describe("marking the request", () => {
  it("puts cache_control on the last block of the planned messages without changing the input", () => {
    const messages: ApiMessage[] = [
      { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
      { role: "assistant", content: [{ type: "text", text: "c" }] },
      { role: "user", content: [{ type: "text", text: "d" }] },
    ];
    const before = JSON.stringify(messages);
    const marked = markMessages(messages, { base: false, summary: false, messages: [0, 2] });
    expect(JSON.stringify(messages)).toBe(before);
    expect(marked[0].content).toEqual([{ type: "text", text: "a" }, { type: "text", text: "b", cache_control: { type: "ephemeral" } }]);
    expect(marked[1]).toBe(messages[1]);
    expect(marked[2].content[0]).toEqual({ type: "text", text: "d", cache_control: { type: "ephemeral" } });
  });

  it("splits the system prompt into the stable part and the summary, marking each as planned", () => {
    expect(systemBlocks("You help.", "<summary>", { base: true, summary: false, messages: [] })).toEqual([
      { type: "text", text: "You help.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "<summary>" },
    ]);
    expect(systemBlocks("", "", { base: true, summary: true, messages: [] })).toEqual([]);
  });

  it("puts the canvas last among the system blocks, never marked, so a canvas change keeps the stable part and the summary cached", () => {
    expect(systemBlocks("You help.", "<summary>", { base: true, summary: true, messages: [] }, "## canvas")).toEqual([
      { type: "text", text: "You help.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "<summary>", cache_control: { type: "ephemeral" } },
      { type: "text", text: "## canvas" },
    ]);
    // Its tokens still count towards the message breakpoints' prefix.
    const args = { baseTokens: 300, summaryTokens: 300, messages: conversation(1, 10), factor: 1, minCacheTokens: 1024 };
    expect(planCacheBreakpoints(args).messages).toEqual([]);
    expect(planCacheBreakpoints({ ...args, canvasTokens: 1000 }).messages).toEqual([0, 2]);
  });
});

describe("what changing the prefix costs", () => {
  const price = { cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 };
  const now = new Date("2026-11-23T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it("a warm cache: the rewrite costs once, the shorter prefix repays it after some turns", () => {
    const b = cacheBreak({ lastRequestAt: ago(60_000), now, stableTokens: 5_000, preTokens: 120_000, postTokens: 45_000, price });
    expect(b.warm).toBe(true);
    expect(b.rewrite_tokens).toBe(40_000);
    // 40K written at $3.75/M + 5K read at $0.30/M − 120K read at $0.30/M.
    expect(b.break_cost_usd).toBeCloseTo(0.15 + 0.0015 - 0.036, 6);
    expect(b.saving_per_turn_usd).toBeCloseTo(0.0225, 6);
    expect(b.payback_turns).toBe(6);
  });

  it("a cold cache (over five minutes since the last request): compacting pays at once", () => {
    const b = cacheBreak({ lastRequestAt: ago(6 * 60_000), now, stableTokens: 5_000, preTokens: 120_000, postTokens: 45_000, price });
    expect(b.warm).toBe(false);
    expect(b.break_cost_usd).toBeLessThan(0);
    expect(b.payback_turns).toBe(0);
    expect(cacheBreak({ lastRequestAt: null, now, stableTokens: 0, preTokens: 10, postTokens: 5, price }).warm).toBe(false);
  });

  it("automatic compaction starts earlier only when the cache is cold", () => {
    expect(autoCompactThresholdPercent(80, true)).toBe(80);
    expect(autoCompactThresholdPercent(80, false)).toBe(80 - COLD_CACHE_EARLY_POINTS);
    expect(isCacheWarm(ago(CACHE_TTL_MS - 1), now)).toBe(true);
    expect(isCacheWarm(ago(CACHE_TTL_MS), now)).toBe(false);
  });
});
