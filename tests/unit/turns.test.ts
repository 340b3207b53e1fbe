import { describe, it, expect } from "vitest";
import { groupTurns, nextTurnSeq, startsTurn } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage, Role } from "@/lib/context/types";

const text = (t: string): ContentBlock => ({ type: "text", text: t });
const toolUse = (id: string): ContentBlock => ({ type: "tool_use", id, name: "run", input: { cmd: "ls" } });
const toolResult = (id: string): ContentBlock => ({ type: "tool_result", tool_use_id: id, content: "ok" });

/** Assigns seq and turnSeq the way the chat layer does when it writes messages. */
function conversation(specs: { role: Role; content: ContentBlock[]; tokens?: number; protected?: boolean }[]): EngineMessage[] {
  let prev: number | null = null;
  return specs.map((s, i) => {
    const turnSeq = nextTurnSeq(prev, s.role, s.content);
    prev = turnSeq;
    return {
      seq: i + 1,
      turnSeq,
      role: s.role,
      content: s.content,
      tokenCount: s.tokens ?? 10,
      protected: s.protected ?? false,
      status: "complete",
    };
  });
}

describe("startsTurn", () => {
  it("is true for a user message with text or images", () => {
    expect(startsTurn("user", [text("hi")])).toBe(true);
    expect(startsTurn("user", [{ type: "image", source: { type: "url", url: "u" } }])).toBe(true);
  });

  it("is false for assistant messages", () => {
    expect(startsTurn("assistant", [text("hi")])).toBe(false);
  });

  it("is false for a user message carrying tool results, even with text after them", () => {
    expect(startsTurn("user", [toolResult("a")])).toBe(false);
    expect(startsTurn("user", [toolResult("a"), toolResult("b")])).toBe(false);
    expect(startsTurn("user", [toolResult("a"), text("also this")])).toBe(false);
  });
});

describe("nextTurnSeq", () => {
  it("starts at 1 whatever the first message is", () => {
    expect(nextTurnSeq(null, "user", [text("hi")])).toBe(1);
    expect(nextTurnSeq(null, "assistant", [text("hi")])).toBe(1);
  });

  it("advances only on a turn-starting user message", () => {
    expect(nextTurnSeq(4, "user", [text("next")])).toBe(5);
    expect(nextTurnSeq(4, "assistant", [toolUse("a")])).toBe(4);
    expect(nextTurnSeq(4, "user", [toolResult("a")])).toBe(4);
  });
});

describe("groupTurns", () => {
  const messages = conversation([
    { role: "user", content: [text("fix the build")], tokens: 5 },
    { role: "assistant", content: [text("looking"), toolUse("t1")], tokens: 20 },
    { role: "user", content: [toolResult("t1")], tokens: 100 },
    { role: "assistant", content: [toolUse("t2")], tokens: 15 },
    { role: "user", content: [toolResult("t2"), text("and here is more")], tokens: 50 },
    { role: "assistant", content: [text("fixed")], tokens: 7 },
    { role: "user", content: [text("thanks, now tests")], tokens: 6 },
    { role: "assistant", content: [text("done")], tokens: 4 },
    { role: "user", content: [text("remember: use pnpm")], tokens: 8, protected: true },
    { role: "assistant", content: [text("noted")], tokens: 3 },
    { role: "user", content: [text("last")], tokens: 2 },
  ]);

  it("keeps a whole tool loop in one turn", () => {
    expect(messages.map((m) => m.turnSeq)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4]);
    const turns = groupTurns(messages);
    expect(turns.map((t) => t.turnSeq)).toEqual([1, 2, 3, 4]);
    expect(turns[0].messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("sums token counts per turn", () => {
    expect(groupTurns(messages).map((t) => t.tokens)).toEqual([197, 10, 11, 2]);
  });

  it("protects the first turn and turns holding a protected message", () => {
    expect(groupTurns(messages).map((t) => t.protected)).toEqual([true, false, true, false]);
  });

  it("only treats turnSeq 1 as the first turn when given a tail", () => {
    const tail = groupTurns(messages.filter((m) => m.turnSeq >= 2));
    expect(tail.map((t) => [t.turnSeq, t.protected])).toEqual([
      [2, false],
      [3, true],
      [4, false],
    ]);
  });

  it("orders turns and messages by seq whatever the input order", () => {
    const turns = groupTurns([...messages].reverse());
    expect(turns.map((t) => t.turnSeq)).toEqual([1, 2, 3, 4]);
    expect(turns[1].messages.map((m) => m.seq)).toEqual([7, 8]);
  });

  it("returns no turns for no messages", () => {
    expect(groupTurns([])).toEqual([]);
  });
});
