import { describe, expect, it } from "vitest";
import { CLEAR_AT_LEAST, CLEARED_MARK, clearToolResults, KEEP_RECENT_RESULTS, nextClearingMark } from "@/lib/context/clearing";
import type { EngineMessage } from "@/lib/context/types";

let seq = 0;
const msg = (m: Partial<EngineMessage> & Pick<EngineMessage, "role" | "content" | "tokenCount">): EngineMessage => ({
  seq: ++seq,
  turnSeq: 1,
  protected: false,
  status: "complete",
  ...m,
});
const use = (id: string) => msg({ role: "assistant", content: [{ type: "tool_use", id, name: "recall", input: { query: "x" } }], tokenCount: 20 });
const result = (id: string, tokens: number, extra: Partial<EngineMessage> = {}) =>
  msg({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "r".repeat(tokens * 4) }], tokenCount: tokens, ...extra });

/** A turn with `n` tool rounds whose results hold `tokens` each. */
function rounds(n: number, tokens: number): EngineMessage[] {
  seq = 0;
  const out = [msg({ role: "user", content: [{ type: "text", text: "go" }], tokenCount: 5 })];
  for (let i = 0; i < n; i++) out.push(use(`t${i}`), result(`t${i}`, tokens));
  return out;
}

const resultText = (m: EngineMessage) => {
  const b = m.content[0];
  return b?.type === "tool_result" && typeof b.content === "string" ? b.content : "";
};

describe("clearing old tool results", () => {
  it("moves the mark only when the results older than the newest three save enough", () => {
    expect(KEEP_RECENT_RESULTS).toBe(3);
    // Three old results of 1,000 tokens: 3,000 - placeholders < CLEAR_AT_LEAST.
    expect(nextClearingMark(rounds(6, 1_000), 0)).toBeNull();
    const ms = rounds(6, 2_000);
    const mark = nextClearingMark(ms, 0);
    // The third result (seq 7) is the newest that may go; results 4-6 stay.
    expect(mark?.through).toBe(7);
    expect(mark?.saves).toBeGreaterThanOrEqual(CLEAR_AT_LEAST);
    expect(mark?.saves).toBeLessThan(6_000);
    // Nothing new to clear past the mark: it stays where it is.
    expect(nextClearingMark(ms, 7)).toBeNull();
  });

  it("sends placeholders up to the mark, keeps the newest three and protected results, and never touches its input", () => {
    const ms = rounds(6, 2_000);
    ms[4] = { ...ms[4], protected: true } as EngineMessage; // the second result
    const before = JSON.stringify(ms);
    const { messages, saved } = clearToolResults(ms, 13);
    expect(JSON.stringify(ms)).toBe(before);
    const texts = messages.filter((m) => m.role === "user" && m.content[0]?.type === "tool_result").map(resultText);
    expect(texts.map((t) => t.startsWith(CLEARED_MARK))).toEqual([true, false, true, false, false, false]);
    expect(texts[0]).toMatch(/about 2,000 tokens\)\. Call the tool again/);
    // The tool_use_id pairs stay intact: the API refuses a tool_use without its result.
    expect(messages[2]?.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t0" });
    expect([...saved.keys()]).toEqual([3, 7]);
    const m3 = messages.find((m) => m.seq === 3);
    expect(m3?.tokenCount).toBe(2_000 - (saved.get(3) ?? 0));
    expect(saved.get(3)).toBeGreaterThan(1_950);
  });

  it("changes nothing without a mark", () => {
    const ms = rounds(6, 2_000);
    const { messages, saved } = clearToolResults(ms, 0);
    expect(messages).toEqual(ms);
    expect(saved.size).toBe(0);
  });

  it("splits a message's count between its blocks when it holds several results", () => {
    seq = 0;
    const many = msg({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: "x".repeat(3_000) },
        { type: "tool_result", tool_use_id: "b", content: "x".repeat(1_000) },
      ],
      tokenCount: 4_000,
    });
    const tail = [use("c"), result("c", 10), use("d"), result("d", 10), use("e"), result("e", 10)];
    const { messages, saved } = clearToolResults([many, ...tail], many.seq);
    expect(saved.get(many.seq)).toBeGreaterThan(3_900);
    expect(messages[0]?.content.every((b) => b.type === "tool_result" && String(b.content).startsWith(CLEARED_MARK))).toBe(true);
  });
});
