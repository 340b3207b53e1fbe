import { describe, expect, it } from "vitest";
import type { ContextStatusJson } from "@/lib/contract";
import { tokenBarSummary } from "@/lib/client/token-bar-text";

describe("token bar in words", () => {
  it("says the share, the tokens, where compaction starts and the level", () => {
    const status = { usage_percent: 33.4, current_tokens: 25_300, capacity_tokens: 76_000, threshold_percent: 80, status: "warning" } as ContextStatusJson;
    expect(tokenBarSummary(status)).toBe("33% used, 25K of 76K tokens, compaction at 80%, warning");
    expect(tokenBarSummary(null)).toBe("Context usage: no session yet");
  });
});
