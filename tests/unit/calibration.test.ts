import { describe, it, expect } from "vitest";
import { calibrate, initialFactor, updateFactor } from "@/lib/tokens/calibration";

describe("initialFactor", () => {
  it("starts higher for the 2026 tokenizer", () => {
    expect(initialFactor("claude-legacy")).toBe(1.1);
    expect(initialFactor("claude-2026")).toBe(1.4);
  });
});

describe("updateFactor", () => {
  it("lets the first measurement replace the initial factor outright", () => {
    expect(updateFactor(null, 1300, 1000, "claude-legacy")).toEqual({ factor: 1.3, samples: 1 });
    expect(updateFactor({ factor: 1.4, samples: 0 }, 900, 1000, "claude-2026")).toEqual({ factor: 0.9, samples: 1 });
  });

  it("averages later measurements with alpha 0.3", () => {
    const next = updateFactor({ factor: 1.3, samples: 1 }, 1500, 1000, "claude-legacy");
    expect(next.factor).toBeCloseTo(1.36, 10);
    expect(next.samples).toBe(2);
    const again = updateFactor(next, 1000, 1000, "claude-legacy");
    expect(again.factor).toBeCloseTo(0.3 * 1 + 0.7 * 1.36, 10);
    expect(again.samples).toBe(3);
  });

  it("clamps the factor to [0.5, 3]", () => {
    expect(updateFactor({ factor: 1.3, samples: 1 }, 100_000, 1000, "claude-legacy")).toEqual({ factor: 3, samples: 2 });
    expect(updateFactor({ factor: 0.6, samples: 5 }, 10, 1000, "claude-legacy")).toEqual({ factor: 0.5, samples: 6 });
    expect(updateFactor(null, 10_000, 1000, "claude-2026").factor).toBe(3);
  });

  it("ignores requests estimated below 50 tokens", () => {
    expect(updateFactor(null, 100, 49, "claude-2026")).toEqual({ factor: 1.4, samples: 0 });
    const prev = { factor: 1.25, samples: 4 };
    expect(updateFactor(prev, 100, 10, "claude-legacy")).toEqual(prev);
    expect(updateFactor(null, 60, 50, "claude-legacy")).toEqual({ factor: 1.2, samples: 1 });
  });

  it("ignores empty measurements", () => {
    expect(updateFactor(null, 0, 1000, "claude-legacy")).toEqual({ factor: 1.1, samples: 0 });
  });
});

describe("calibrate", () => {
  it("rounds up without float noise adding a token", () => {
    expect(calibrate(100, 1.1)).toBe(110);
    expect(calibrate(101, 1.1)).toBe(112);
    expect(calibrate(1_000_000, 1.1)).toBe(1_100_000);
    expect(calibrate(0, 1.4)).toBe(0);
    expect(calibrate(1000, 1.3333)).toBe(1334);
  });
});
