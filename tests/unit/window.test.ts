import { describe, it, expect } from "vitest";
import { selectWindow } from "@/lib/context/window";
import type { Turn } from "@/lib/context/turns";

function turn(turnSeq: number, tokens: number, isProtected = false): Turn {
  return { turnSeq, tokens, protected: isProtected || turnSeq === 1, messages: [] };
}

const seqs = (turns: Turn[]) => turns.map((t) => t.turnSeq);

describe("selectWindow", () => {
  it("keeps everything when it fits", () => {
    const tail = [turn(1, 300), turn(2, 300), turn(3, 300)];
    const w = selectWindow({ pinned: [], tail, fixedTokens: 100, calibration: 1, capacity: 1000 });
    expect(w).toMatchObject({ cutoffTurnSeq: 1, droppedTurnSeqs: [], rawTokens: 1000, calibratedTokens: 1000, overCapacity: false });
    expect(seqs(w.kept)).toEqual([1, 2, 3]);
  });

  it("drops whole oldest unprotected turns and keeps the first turn", () => {
    const tail = [1, 2, 3, 4, 5].map((s) => turn(s, 300));
    const w = selectWindow({ pinned: [], tail, fixedTokens: 100, calibration: 1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([2, 3]);
    expect(w.cutoffTurnSeq).toBe(4);
    expect(seqs(w.kept)).toEqual([1, 4, 5]);
    expect(w.rawTokens).toBe(1000);
    expect(w.overCapacity).toBe(false);
  });

  it("applies the calibration factor before comparing with capacity", () => {
    const tail = [1, 2, 3, 4, 5].map((s) => turn(s, 300));
    const w = selectWindow({ pinned: [], tail, fixedTokens: 100, calibration: 1.1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([2, 3, 4]);
    expect(seqs(w.kept)).toEqual([1, 5]);
    expect(w.rawTokens).toBe(700);
    expect(w.calibratedTokens).toBe(770);
  });

  it("keeps a protected middle turn while the cutoff moves past it", () => {
    const tail = [turn(1, 300), turn(2, 300), turn(3, 300, true), turn(4, 300), turn(5, 300)];
    const w = selectWindow({ pinned: [], tail, fixedTokens: 100, calibration: 1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([2, 4]);
    expect(w.cutoffTurnSeq).toBe(5);
    expect(seqs(w.kept)).toEqual([1, 3, 5]);
    expect(w.overCapacity).toBe(false);
    expect(w.calibratedTokens).toBe(1000);
  });

  it("counts fixed tokens (system, tools, summary...) against capacity", () => {
    const tail = [2, 3, 4, 5].map((s) => turn(s, 200));
    const none = selectWindow({ pinned: [turn(1, 0)], tail, fixedTokens: 0, calibration: 1, capacity: 1000 });
    expect(none.droppedTurnSeqs).toEqual([]);
    const heavy = selectWindow({ pinned: [turn(1, 0)], tail, fixedTokens: 600, calibration: 1, capacity: 1000 });
    expect(heavy.droppedTurnSeqs).toEqual([2, 3]);
    expect(heavy.cutoffTurnSeq).toBe(4);
    expect(heavy.calibratedTokens).toBe(1000);
  });

  it("counts pinned turns and never drops them", () => {
    const pinned = [turn(1, 500), turn(3, 50, true)];
    const tail = [5, 6, 7, 8].map((s) => turn(s, 200));
    const w = selectWindow({ pinned, tail, fixedTokens: 0, calibration: 1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([5, 6]);
    expect(seqs(w.kept)).toEqual([1, 3, 7, 8]);
    expect(w.cutoffTurnSeq).toBe(7);
    expect(w.rawTokens).toBe(950);
  });

  it("always keeps the latest turn and flags overCapacity when it alone is too big", () => {
    const w = selectWindow({ pinned: [turn(1, 100)], tail: [turn(7, 2000)], fixedTokens: 0, calibration: 1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([]);
    expect(seqs(w.kept)).toEqual([1, 7]);
    expect(w.cutoffTurnSeq).toBe(7);
    expect(w.overCapacity).toBe(true);
    expect(w.calibratedTokens).toBe(2100);
  });

  it("drops everything older before giving up on a huge latest turn", () => {
    const tail = [turn(2, 100), turn(3, 100), turn(4, 5000)];
    const w = selectWindow({ pinned: [turn(1, 10)], tail, fixedTokens: 50, calibration: 1, capacity: 1000 });
    expect(w.droppedTurnSeqs).toEqual([2, 3]);
    expect(seqs(w.kept)).toEqual([1, 4]);
    expect(w.rawTokens).toBe(5060);
    expect(w.overCapacity).toBe(true);
  });

  it("handles an empty tail", () => {
    const w = selectWindow({ pinned: [turn(1, 10)], tail: [], fixedTokens: 5, calibration: 1, capacity: 1000 });
    expect(w).toMatchObject({ cutoffTurnSeq: 2, droppedTurnSeqs: [], rawTokens: 15, overCapacity: false });
    expect(selectWindow({ pinned: [], tail: [], fixedTokens: 0, calibration: 1, capacity: 10 }).cutoffTurnSeq).toBe(1);
  });

  it("does not mutate its input", () => {
    const tail = [1, 2, 3].map((s) => turn(s, 600));
    const copy = structuredClone(tail);
    selectWindow({ pinned: [], tail, fixedTokens: 0, calibration: 1, capacity: 1000 });
    expect(tail).toEqual(copy);
  });
});

describe("sliding further than needed, for the prompt cache", () => {
  const turn = (turnSeq: number, tokens: number) => ({ turnSeq, tokens, protected: false, messages: [] });
  const tail = Array.from({ length: 10 }, (_, i) => turn(i + 1, 100));

  it("slides nothing while the request fits capacity, however close", () => {
    const s = selectWindow({ pinned: [], tail, fixedTokens: 0, calibration: 1, capacity: 1000, slideTarget: 800 });
    expect(s.droppedTurnSeqs).toEqual([]);
  });

  it("once a slide is needed, slides down to the target so the next turns keep the same start", () => {
    const s = selectWindow({ pinned: [], tail: [...tail, turn(11, 100)], fixedTokens: 0, calibration: 1, capacity: 1000, slideTarget: 800 });
    expect(s.droppedTurnSeqs).toEqual([1, 2, 3]);
    expect(s.calibratedTokens).toBe(800);
    // The next turn fits under capacity again without another slide.
    const next = selectWindow({ pinned: [], tail: [...tail.slice(3), turn(11, 100), turn(12, 100)], fixedTokens: 0, calibration: 1, capacity: 1000, slideTarget: 800 });
    expect(next.droppedTurnSeqs).toEqual([]);
  });

  it("never treats a target above capacity as permission to exceed it", () => {
    const s = selectWindow({ pinned: [], tail: [...tail, turn(11, 100)], fixedTokens: 0, calibration: 1, capacity: 1000, slideTarget: 5000 });
    expect(s.calibratedTokens).toBeLessThanOrEqual(1000);
  });
});
