import { describe, expect, it } from "vitest";
import type { ContextStatusJson } from "@/lib/contract";
import { breakdownRows, tokenBarSummary } from "@/lib/client/token-bar-text";

describe("token bar in words", () => {
  it("says the share, the tokens, where compaction starts and the level", () => {
    const status = { usage_percent: 33.4, current_tokens: 25_300, capacity_tokens: 76_000, threshold_percent: 80, status: "warning" } as ContextStatusJson;
    expect(tokenBarSummary(status)).toBe("33% used, 25K of 76K tokens, compaction at 80%, warning");
    expect(tokenBarSummary(null)).toBe("Context usage: no session yet");
  });
});

describe("token bar breakdown", () => {
  const breakdown = { system: 10, tools: 20, summary: 0, memory: 0, canvas: 0, messages: 500, files: 0 };
  it("lists files under messages, as a part of them, only when there are any", () => {
    expect(breakdownRows(breakdown).map((r) => r.key)).toEqual(["system", "tools", "summary", "memory", "canvas", "messages"]);
    const rows = breakdownRows({ ...breakdown, files: 320 });
    expect(rows[rows.length - 1]).toEqual({ key: "files", label: "Files", tokens: 320, partOf: "messages" });
  });
});
