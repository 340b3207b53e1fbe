// THREADKEEPER_LOG_FORMAT=json: one JSON object per line with level, msg, time, the request's id
// when the line is written on behalf of a request, and the error; redacted like the text format,
// which stays the default.
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonLine, log } from "@/lib/log";
import { runWithRequest, withRequestId } from "@/lib/request-context";

const KEY = "sk-ant-api03-Zx9Kq2LmN4pR7sT1uV3wX5yA8bC0dE6fG-hJ_kL2mN4pQ6rS8tU0vW2xY4zA6bC8dE0fG2hJ4kL6mN8pQ0rS2tU4vW6xY8zA0bC2d-AA";

afterEach(() => {
  delete process.env.THREADKEEPER_LOG_FORMAT;
  vi.restoreAllMocks();
});

function captured(level: "error" | "warn" | "info") {
  return vi.spyOn(console, level).mockImplementation(() => {});
}

describe("JSON logs", () => {
  it("write one object per line: time, level, msg, error", () => {
    process.env.THREADKEEPER_LOG_FORMAT = "json";
    const spy = captured("error");
    const cause = new Error("connection reset");
    log.error("[threadkeeper] compaction failed for session", 42, new Error("summarizer timed out", { cause }));
    expect(spy).toHaveBeenCalledTimes(1);
    const [line] = spy.mock.calls[0] as [string];
    expect(line).not.toContain("\n");
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      level: "error",
      msg: "[threadkeeper] compaction failed for session 42",
      error: { name: "Error", message: "summarizer timed out", cause: { name: "Error", message: "connection reset" } },
    });
    expect(new Date(parsed.time as string).toISOString()).toBe(parsed.time);
    expect(parsed).not.toHaveProperty("request_id");
  });

  it("name the request a line was written for", async () => {
    process.env.THREADKEEPER_LOG_FORMAT = "json";
    const spy = captured("info");
    const actor = { type: "user" as const, id: "u1", name: null };
    await runWithRequest({ requestId: "req-42", ip: null, userAgent: null, actor }, async () => {
      await Promise.resolve();
      log.info("[threadkeeper] inside a request");
    });
    withRequestId("req-43", () => log.info("[threadkeeper] about a request, after it"));
    expect(spy.mock.calls.map(([l]) => (JSON.parse(l as string) as { request_id: string }).request_id)).toEqual(["req-42", "req-43"]);
  });

  it("redact secrets in the message, the error and the data", () => {
    process.env.THREADKEEPER_LOG_FORMAT = "json";
    const spy = captured("warn");
    log.warn(`[threadkeeper] key ${KEY}`, new Error(`bad ${KEY}`), { header: `Bearer ${KEY}` });
    const [line] = spy.mock.calls[0] as [string];
    expect(line).not.toContain(KEY);
    const parsed = JSON.parse(line) as { msg: string; data: { header: string } };
    expect(parsed.msg).toContain("[redacted: ANTHROPIC_API_KEY]");
    expect(parsed.data.header).toContain("[redacted");
  });

  it("survive what JSON cannot hold", () => {
    const line = JSON.parse(jsonLine("info", ["big", { n: 10n }])) as { msg: string; data: string };
    expect(line.msg).toBe("big");
    expect(line.data).toBe("[unserializable]");
  });

  it("are not the default: the text format passes the arguments to the console as they are", () => {
    const spy = captured("error");
    log.error("[threadkeeper] plain", 1);
    expect(spy.mock.calls[0]).toEqual(["[threadkeeper] plain", 1]);
  });
});
