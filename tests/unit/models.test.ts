import { describe, it, expect } from "vitest";
import { MODELS, DEFAULT_MODEL, DEFAULT_SUMMARY_MODEL, costUsd, getModel, modelList, requireModel } from "@/lib/models";

describe("model registry", () => {
  it("lists every model once", () => {
    const ids = MODELS.map((m) => m.id);
    expect(ids).toHaveLength(21);
    expect(new Set(ids).size).toBe(21);
  });

  it("resolves a dated id to the same row as its undated id", () => {
    for (const [dated, undated] of [
      ["claude-haiku-4-5-20251001", "claude-haiku-4-5"],
      ["claude-opus-4-5-20251101", "claude-opus-4-5"],
      ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ]) {
      expect(getModel(dated)).toBe(requireModel(undated));
      expect(requireModel(dated).id).toBe(undated);
    }
  });

  it("dates every release and lists models newest first, each once", () => {
    for (const m of MODELS) expect(m.released, m.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const m of MODELS) expect(new Date(`${m.released}T00:00:00Z`).toISOString().slice(0, 10), m.id).toBe(m.released);
    const list = modelList();
    expect(new Set(list)).toEqual(new Set(MODELS));
    expect(list).toHaveLength(MODELS.length);
    for (let i = 1; i < list.length; i++) expect(list[i - 1].released >= list[i].released).toBe(true);
    expect(list[0].id).toBe("claude-fable-5-2");
    expect(list.at(-1)?.id).toBe("claude-sonnet-4");
  });

  it("prices Fable and Mythos cache reads from 5.1 on at 0.025x input", () => {
    expect(requireModel("claude-fable-5-2").price).toEqual({ inputPerMTok: 8, outputPerMTok: 40, cacheWritePerMTok: 10, cacheReadPerMTok: 0.2 });
    expect(requireModel("claude-mythos-5-1").price.cacheReadPerMTok).toBeCloseTo(0.25, 10);
    expect(requireModel("claude-fable-5").price.cacheReadPerMTok).toBe(1);
  });

  it("gives Claude 4.7 and later, and Mythos Preview, the 2026 tokenizer", () => {
    for (const id of ["claude-opus-4-7", "claude-opus-4-8", "claude-mythos-preview", "claude-sonnet-5", "claude-opus-5"]) {
      expect(requireModel(id).tokenizer, id).toBe("claude-2026");
    }
    for (const id of ["claude-opus-4-6", "claude-sonnet-4-6"]) expect(requireModel(id).tokenizer, id).toBe("claude-legacy");
  });

  it("gives 1M-window models the 2026 tokenizer and 128K output", () => {
    for (const id of ["claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1"]) {
      const m = requireModel(id);
      expect(m.contextWindow).toBe(1_000_000);
      expect(m.maxOutput).toBe(128_000);
      expect(m.tokenizer).toBe("claude-2026");
    }
    expect(requireModel("claude-fable-5-1").label).toBe("Claude Fable 5.1");
    expect(requireModel("claude-haiku-5-5").label).toBe("Claude Haiku 5.5");
  });

  it("gives 200K models the legacy tokenizer and their output limits", () => {
    for (const id of ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4"]) {
      const m = requireModel(id);
      expect(m.contextWindow).toBe(200_000);
      expect(m.maxOutput).toBe(64_000);
      expect(m.tokenizer).toBe("claude-legacy");
    }
    expect(requireModel("claude-opus-4-1").maxOutput).toBe(32_000);
  });

  it("prices tiers and derives cache prices from input", () => {
    expect(requireModel("claude-haiku-5-5").price).toEqual({ inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 });
    expect(requireModel("claude-sonnet-4").price.outputPerMTok).toBe(15);
    expect(requireModel("claude-opus-4-5").price.inputPerMTok).toBe(5);
    expect(requireModel("claude-opus-5-5").price.outputPerMTok).toBe(25);
    expect(requireModel("claude-opus-4-1").price.inputPerMTok).toBe(15);
    expect(requireModel("claude-opus-4-1").price.cacheWritePerMTok).toBe(18.75);
    expect(requireModel("claude-fable-5-1").price.inputPerMTok).toBe(3);
  });

  it("looks models up and rejects unknown ids", () => {
    expect(getModel("claude-sonnet-5-5")?.label).toBe("Claude Sonnet 5.5");
    expect(getModel("gpt-4")).toBeUndefined();
    expect(() => requireModel("gpt-4")).toThrow(/Unknown model "gpt-4"/);
    expect(getModel(DEFAULT_MODEL)).toBeDefined();
    expect(getModel(DEFAULT_SUMMARY_MODEL)?.id).toBe("claude-haiku-5-5");
  });

  it("cannot be changed at run time", () => {
    const m = requireModel("claude-sonnet-4-5");
    expect(Object.isFrozen(m)).toBe(true);
    expect(Object.isFrozen(m.price)).toBe(true);
  });
});

describe("costUsd", () => {
  it("charges input and output per million tokens", () => {
    const cost = costUsd(requireModel("claude-sonnet-5-5"), { input_tokens: 1_000_000, output_tokens: 100_000 });
    expect(cost).toBeCloseTo(4.5, 10);
  });

  it("adds cache writes at 1.25x and cache reads at 0.1x input", () => {
    const cost = costUsd(requireModel("claude-sonnet-5-5"), {
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_creation_input_tokens: 200_000,
      cache_read_input_tokens: 1_000_000,
    });
    expect(cost).toBeCloseTo(4.5 + 0.75 + 0.3, 10);
  });

  it("treats null cache counts as zero", () => {
    const cost = costUsd(requireModel("claude-opus-4-1"), {
      input_tokens: 10_000,
      output_tokens: 2_000,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
    });
    expect(cost).toBeCloseTo(0.3, 10);
  });
});

describe("long-context pricing", () => {
  const sonnet45 = requireModel("claude-sonnet-4-5");

  it("bills a request over 200K input tokens, cache reads and writes included, at the long-context rate", () => {
    // 150K uncached + 60K read from cache = 210K input: over the tier, so every token is at $6/$22.50.
    const over = costUsd(sonnet45, { input_tokens: 150_000, output_tokens: 10_000, cache_read_input_tokens: 60_000 });
    expect(over).toBeCloseTo((150_000 * 6 + 10_000 * 22.5 + 60_000 * 0.6) / 1e6, 10);
  });

  it("keeps the base rate at exactly 200K and for models without a tier", () => {
    expect(costUsd(sonnet45, { input_tokens: 200_000, output_tokens: 0 })).toBeCloseTo(0.6, 10);
    expect(costUsd(requireModel("claude-haiku-4-5"), { input_tokens: 300_000, output_tokens: 0 })).toBeCloseTo(0.3, 10);
  });

  it("names each model's shortest cacheable prefix and freezes the tier too", () => {
    expect(requireModel("claude-haiku-4-5").minCacheTokens).toBe(4096);
    expect(requireModel("claude-sonnet-4-5").minCacheTokens).toBe(1024);
    expect(Object.isFrozen(sonnet45.longContext?.price)).toBe(true);
  });
});
