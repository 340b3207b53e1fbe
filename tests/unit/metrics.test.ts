// The metric helpers: a failed Claude call is labelled by what went wrong, and one registry per
// process holds every series from the start, at 0.
import { describe, expect, it } from "vitest";
import { claudeStatus, countBilledTokens, metrics, timeClaudeCall } from "@/lib/metrics";

async function sample(name: string): Promise<number> {
  const text = await metrics().registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(name + " "));
  return line ? Number(line.slice(name.length + 1)) : NaN;
}

describe("metrics", () => {
  it("labels a failed call by the API's status, else by what went wrong", () => {
    expect(claudeStatus(Object.assign(new Error("x"), { status: 529 }))).toBe("529");
    expect(claudeStatus(Object.assign(new Error("x"), { name: "APIConnectionTimeoutError" }))).toBe("timeout");
    expect(claudeStatus(Object.assign(new Error("x"), { name: "APIUserAbortError" }))).toBe("aborted");
    expect(claudeStatus(Object.assign(new Error("x"), { name: "APIConnectionError" }))).toBe("connection");
    expect(claudeStatus(new Error("x"))).toBe("error");
    expect(claudeStatus("x")).toBe("error");
  });

  it("is one registry, created once, with every labelled series there at 0", async () => {
    expect(metrics()).toBe(metrics());
    expect(await sample('threadkeeper_turns_total{outcome="stopped"}')).toBe(0);
    expect(await sample('threadkeeper_rate_limit_refusals_total{bucket="budget"}')).toBe(0);
  });

  it("times and counts a call, and adds up the tokens it billed", async () => {
    const before = await sample('threadkeeper_tokens_total{direction="cache_read"}');
    await timeClaudeCall("summary", async () => countBilledTokens({ input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 40, cache_creation_input_tokens: null }));
    await expect(timeClaudeCall("summary", async () => Promise.reject(Object.assign(new Error("x"), { status: 429 })))).rejects.toThrow("x");
    expect((await sample('threadkeeper_tokens_total{direction="cache_read"}')) - before).toBe(40);
    expect(await sample('threadkeeper_claude_requests_total{kind="summary",status="ok"}')).toBeGreaterThanOrEqual(1);
    expect(await sample('threadkeeper_claude_requests_total{kind="summary",status="429"}')).toBeGreaterThanOrEqual(1);
  });
});
