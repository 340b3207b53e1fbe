import { describe, expect, it } from "vitest";
import { breakpointCount, markMessages, MAX_BREAKPOINTS, planCacheBreakpoints, systemBlocks } from "@/lib/context/prompt-cache";
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
});
