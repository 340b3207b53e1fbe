// A memory's words go into the database in parts (short transactions): every character once,
// in order, each part within the bound, cut after a newline when one is near.
import { describe, expect, it } from "vitest";
import { textParts } from "@/lib/operations/memory";

describe("textParts", () => {
  it("keeps a short text whole", () => {
    expect(textParts("a\nb", 10)).toEqual(["a\nb"]);
  });

  it("cuts a long text after newlines, losing nothing", () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${"x".repeat(i % 37)}`).join("\n");
    const parts = textParts(text, 1_000);
    expect(parts.join("")).toBe(text);
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1_001);
    for (const p of parts.slice(0, -1)) expect(p.endsWith("\n")).toBe(true);
  });

  it("cuts a text without newlines at the bound", () => {
    const parts = textParts("y".repeat(2_500), 1_000);
    expect(parts.map((p) => p.length)).toEqual([1_000, 1_000, 500]);
  });
});
