import { describe, expect, it } from "vitest";
import { composeMessage, describePaste, isLargePaste } from "@/lib/client/paste";

describe("large pastes", () => {
  it("are long texts or many lines", () => {
    expect(isLargePaste("a short note")).toBe(false);
    expect(isLargePaste("x".repeat(2_000))).toBe(true);
    expect(isLargePaste(Array(40).fill("l").join("\n"))).toBe(true);
  });

  it("are described by lines and size, and sent after the typed text", () => {
    expect(describePaste("a\nb")).toBe("2 lines · 3 characters");
    expect(describePaste("x".repeat(4_200))).toBe("1 line · 4.2K characters");
    expect(composeMessage("  Why?  ", [{ id: 0, text: "log one" }, { id: 1, text: "log two" }])).toBe("Why?\n\nlog one\n\nlog two");
    expect(composeMessage("", [{ id: 0, text: "only a log" }])).toBe("only a log");
  });
});
