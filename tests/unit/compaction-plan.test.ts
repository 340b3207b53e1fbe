import { describe, expect, it } from "vitest";
import {
  compactionBudgets,
  detailsBudget,
  isThrashing,
  MAX_OVERFLOW_ATTEMPTS,
  OVERFLOW_REDUCTION,
  overflowTarget,
  planCompaction,
} from "@/lib/context/compaction";
import { groupTurns, nextTurnSeq } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage, Role } from "@/lib/context/types";

const text = (t: string): ContentBlock => ({ type: "text", text: t });

/** Messages numbered the way the chat layer writes them; `tokens` per message. */
function conversation(specs: { role: Role; content: ContentBlock[]; tokens?: number; protected?: boolean }[]): EngineMessage[] {
  let prev: number | null = null;
  return specs.map((s, i) => {
    const turnSeq = nextTurnSeq(prev, s.role, s.content);
    prev = turnSeq;
    return { seq: i + 1, turnSeq, role: s.role, content: s.content, tokenCount: s.tokens ?? 10, protected: s.protected ?? false, status: "complete" };
  });
}

/** n plain turns of (user 10 + assistant 10) tokens. */
function plainTurns(n: number, tokens = 10) {
  const specs: { role: Role; content: ContentBlock[]; tokens: number; protected?: boolean }[] = [];
  for (let i = 0; i < n; i++) {
    specs.push({ role: "user", content: [text(`q${i + 1}`)], tokens });
    specs.push({ role: "assistant", content: [text(`a${i + 1}`)], tokens });
  }
  return specs;
}

describe("planCompaction", () => {
  it("keeps the latest whole turns within the keep budget and condenses the rest", () => {
    // Turns 2..10 (turn 1 already summarized), 20 tokens each.
    const turns = groupTurns(conversation(plainTurns(10))).slice(1);
    const plan = planCompaction({ turns, keepBudget: 65 });
    expect(plan).not.toBeNull();
    expect(plan!.keep.map((t) => t.turnSeq)).toEqual([8, 9, 10]);
    expect(plan!.condense.map((t) => t.turnSeq)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(plan!.throughTurn).toBe(7);
    expect(plan!.keptTokens).toBe(60);
    expect(plan!.condensedTokens).toBe(120);
    expect(plan!.pinned).toEqual([]);
  });

  it("keeps exactly the budget when it is met to the token", () => {
    const turns = groupTurns(conversation(plainTurns(6))).slice(1);
    expect(planCompaction({ turns, keepBudget: 60 })!.keep.map((t) => t.turnSeq)).toEqual([4, 5, 6]);
  });

  it("always keeps the last turn, even over budget, and at least minKeepTurns", () => {
    const turns = groupTurns(conversation(plainTurns(5, 500))).slice(1);
    expect(planCompaction({ turns, keepBudget: 0 })!.keep.map((t) => t.turnSeq)).toEqual([5]);
    const two = planCompaction({ turns, keepBudget: 0, minKeepTurns: 2 })!;
    expect(two.keep.map((t) => t.turnSeq)).toEqual([4, 5]);
    expect(two.throughTurn).toBe(3);
  });

  it("pins the first turn and protected turns instead of condensing them", () => {
    const specs = plainTurns(6);
    specs[6].protected = true; // the user message of turn 4
    const turns = groupTurns(conversation(specs));
    const plan = planCompaction({ turns, keepBudget: 40 })!;
    expect(plan.pinned.map((t) => t.turnSeq)).toEqual([1, 4]);
    expect(plan.condense.map((t) => t.turnSeq)).toEqual([2, 3]);
    expect(plan.keep.map((t) => t.turnSeq)).toEqual([5, 6]);
    expect(plan.throughTurn).toBe(4);
    expect(plan.condensedTokens).toBe(40);
  });

  it("keeps a tool_use and its tool_result together in whichever part their turn lands", () => {
    const specs: { role: Role; content: ContentBlock[]; tokens?: number }[] = [
      { role: "user", content: [text("start")] },
      { role: "assistant", content: [text("ok")] },
      { role: "user", content: [text("run the tests")], tokens: 10 },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: { cmd: "npm test" } }], tokens: 30 },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "3 failed" }], tokens: 30 },
      { role: "assistant", content: [text("three failures")], tokens: 10 },
      { role: "user", content: [text("fix them")], tokens: 10 },
      { role: "assistant", content: [text("done")], tokens: 10 },
    ];
    const turns = groupTurns(conversation(specs)).slice(1);
    // 50 would fit the last turn (20) plus part of the tool turn (80), never a piece of it.
    const plan = planCompaction({ turns, keepBudget: 50 })!;
    expect(plan.keep.map((t) => t.turnSeq)).toEqual([3]);
    expect(plan.condense).toHaveLength(1);
    const toolTurn = plan.condense[0];
    expect(toolTurn.messages.map((m) => m.content[0].type)).toEqual(["text", "tool_use", "tool_result", "text"]);
    expect(toolTurn.tokens).toBe(80);
  });

  it("returns null when there is nothing unprotected to condense", () => {
    expect(planCompaction({ turns: [], keepBudget: 100 })).toBeNull();
    const turns = groupTurns(conversation(plainTurns(3)));
    expect(planCompaction({ turns, keepBudget: 1_000 })).toBeNull(); // everything fits
    expect(planCompaction({ turns: turns.slice(0, 2), keepBudget: 0 })).toBeNull(); // only turn 1 (protected) before the kept turn
    expect(planCompaction({ turns, keepBudget: 0, minKeepTurns: 5 })).toBeNull();
  });
});

describe("compactionBudgets", () => {
  it("converts the calibrated capacity to raw tokens and splits the target", () => {
    const b = compactionBudgets({ capacity: 140_000, threshold: 0.8, target: 0.4, fixedTokens: 3_000, pinnedTokens: 2_000, calibration: 1.4 });
    expect(b.targetTokens).toBe(40_000); // 0.4 × 140,000 / 1.4
    expect(b.summaryMaxTokens).toBe(8_000); // 0.08 × 100,000
    expect(b.keepBudget).toBe(40_000 - 3_000 - 2_000 - 8_000);
  });

  it("clamps the summary size to 512..8192", () => {
    const small = compactionBudgets({ capacity: 4_000, threshold: 0.8, target: 0.4, fixedTokens: 0, pinnedTokens: 0, calibration: 1 });
    expect(small.summaryMaxTokens).toBe(512);
    expect(small.targetTokens).toBe(1_600);
    expect(small.keepBudget).toBe(1_088);
    const big = compactionBudgets({ capacity: 700_000, threshold: 0.8, target: 0.4, fixedTokens: 0, pinnedTokens: 0, calibration: 1 });
    expect(big.summaryMaxTokens).toBe(8_192);
  });

  it("never returns a negative keep budget and never aims above the threshold", () => {
    const b = compactionBudgets({ capacity: 10_000, threshold: 0.8, target: 0.4, fixedTokens: 9_000, pinnedTokens: 0, calibration: 1 });
    expect(b.keepBudget).toBe(0);
    const capped = compactionBudgets({ capacity: 10_000, threshold: 0.5, target: 0.9, fixedTokens: 0, pinnedTokens: 0, calibration: 1 });
    expect(capped.targetTokens).toBe(5_000);
  });
});

describe("detailsBudget", () => {
  it("lets summary plus details reach half of what was condensed, never below zero", () => {
    expect(detailsBudget(10_000, 3_000)).toBe(2_000);
    expect(detailsBudget(10_001, 0)).toBe(5_000);
    expect(detailsBudget(4_000, 2_500)).toBe(0);
  });
});

describe("overflowTarget", () => {
  it("removes 25 % of the then-current tokens per attempt, three attempts at most", () => {
    expect(OVERFLOW_REDUCTION).toBe(0.25);
    expect(MAX_OVERFLOW_ATTEMPTS).toBe(3);
    expect(overflowTarget(100_000, 1)).toBe(75_000);
    expect(overflowTarget(100_000, 2)).toBe(56_250);
    expect(overflowTarget(100_000, 3)).toBe(42_187);
    expect(overflowTarget(0, 1)).toBe(0);
    expect(() => overflowTarget(100, 0)).toThrow(RangeError);
    expect(() => overflowTarget(100, 4)).toThrow(RangeError);
  });
});

describe("isThrashing", () => {
  it("is true when the window refilled within 3 turns 3 times in a row", () => {
    expect(isThrashing([10, 12, 15], 17)).toBe(true);
    expect(isThrashing([10, 13, 16], 19)).toBe(true);
    expect(isThrashing([10, 10, 11], 11)).toBe(true);
  });

  it("is false when any of the last three refills took longer", () => {
    expect(isThrashing([10, 12, 15], 19)).toBe(false); // the current refill took 4 turns
    expect(isThrashing([5, 12, 14], 16)).toBe(false); // the oldest took 7
    expect(isThrashing([1, 2, 10, 12, 14], 16)).toBe(true); // only the last three gaps count
  });

  it("needs three recorded compactions and honours the options", () => {
    expect(isThrashing([], 3)).toBe(false);
    expect(isThrashing([12, 15], 17)).toBe(false);
    expect(isThrashing([12, 15], 17, { times: 2 })).toBe(true);
    expect(isThrashing([10, 15, 20], 25, { withinTurns: 5 })).toBe(true);
    expect(isThrashing([10, 15, 20], 25)).toBe(false);
  });
});
