import { describe, expect, it } from "vitest";
import { fitBudget, memoryBlock, relevance, renderMemory } from "@/lib/memory/rank";

const NOW = new Date("2026-11-22T00:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

describe("memory relevance", () => {
  it("fuses both lists: a hit in both beats a hit in one", () => {
    const both = relevance({ vectorRank: 2, textRank: 2, createdAt: NOW, pinned: false }, NOW);
    const one = relevance({ vectorRank: 1, textRank: null, createdAt: NOW, pinned: false }, NOW);
    expect(both).toBeGreaterThan(one);
  });

  it("ranks by fused rank first, then recency and pinning break near-ties", () => {
    const fresh = relevance({ vectorRank: 3, textRank: null, createdAt: NOW, pinned: false }, NOW);
    const old = relevance({ vectorRank: 3, textRank: null, createdAt: daysAgo(60), pinned: false }, NOW);
    const pinned = relevance({ vectorRank: 3, textRank: null, createdAt: daysAgo(60), pinned: true }, NOW);
    expect(fresh).toBeGreaterThan(old);
    expect(pinned).toBeGreaterThan(old);
    const far = relevance({ vectorRank: 40, textRank: null, createdAt: NOW, pinned: true }, NOW);
    const top = relevance({ vectorRank: 1, textRank: 1, createdAt: daysAgo(90), pinned: false }, NOW);
    expect(top).toBeGreaterThan(far);
  });

  it("stays within [0, 1]", () => {
    expect(relevance({ vectorRank: 1, textRank: 1, createdAt: NOW, pinned: true }, NOW)).toBeCloseTo(1, 6);
    expect(relevance({ vectorRank: null, textRank: null, createdAt: daysAgo(365), pinned: false }, NOW)).toBeGreaterThanOrEqual(0);
  });
});

describe("memory block", () => {
  it("fits the budget best-first, skipping one too large for what is left", () => {
    expect(fitBudget([{ t: 50 }, { t: 80 }, { t: 30 }], (x) => x.t, 90)).toEqual([{ t: 50 }, { t: 30 }]);
    expect(fitBudget([{ t: 50 }], (x) => x.t, 0)).toEqual([]);
  });

  it("renders decisions and code references, and nothing when empty", () => {
    const text = renderMemory({ summary: "Sync service.", key_decisions: ["Use PGlite"], code_references: ["src/a.ts"], created_at: "2026-11-01T10:00:00Z" });
    expect(text).toContain("2026-11-01");
    expect(text).toContain("Decisions: Use PGlite");
    expect(text).toContain("Code: src/a.ts");
    expect(memoryBlock([])).toBe("");
    expect(memoryBlock([text])).toContain("<memories>");
  });
});
