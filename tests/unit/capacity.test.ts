import { describe, it, expect } from "vitest";
import { computeCapacity, statusLevel } from "@/lib/context/capacity";
import { requireModel } from "@/lib/models";

const defaults = { output_reservation: 0.2, safety_buffer: 0.1 };

describe("computeCapacity", () => {
  it("caps the reply reservation of a 1M model at its max output", () => {
    expect(computeCapacity(requireModel("claude-sonnet-5-5"), defaults)).toEqual({
      window: 1_000_000,
      reserved: 128_000,
      safety: 100_000,
      capacity: 772_000,
    });
  });

  it("uses the fraction when it is below max output", () => {
    expect(computeCapacity(requireModel("claude-opus-5-5"), { output_reservation: 0.05, safety_buffer: 0.1 })).toEqual({
      window: 1_000_000,
      reserved: 50_000,
      safety: 100_000,
      capacity: 850_000,
    });
  });

  it("computes a 200K model", () => {
    expect(computeCapacity(requireModel("claude-sonnet-4-5"), defaults)).toEqual({
      window: 200_000,
      reserved: 40_000,
      safety: 20_000,
      capacity: 140_000,
    });
  });

  it("caps at Opus 4.1's smaller max output", () => {
    expect(computeCapacity(requireModel("claude-opus-4-1"), defaults)).toEqual({
      window: 200_000,
      reserved: 32_000,
      safety: 20_000,
      capacity: 148_000,
    });
  });

  it("allows no safety buffer", () => {
    expect(computeCapacity(requireModel("claude-haiku-4-5"), { output_reservation: 0.1, safety_buffer: 0 }).capacity).toBe(180_000);
  });
});

describe("statusLevel", () => {
  it("turns yellow at 70% and red at 85%", () => {
    expect(statusLevel(0)).toBe("normal");
    expect(statusLevel(69.9)).toBe("normal");
    expect(statusLevel(70)).toBe("warning");
    expect(statusLevel(84.9)).toBe("warning");
    expect(statusLevel(85)).toBe("critical");
    expect(statusLevel(120)).toBe("critical");
  });
});
