import { describe, it, expect } from "vitest";
import { OFFLINE_BANNER, offlineReply, streamOffline } from "@/lib/llm/offline";
import type { ApiMessage } from "@/lib/context/types";

const user = (t: string): ApiMessage => ({ role: "user", content: [{ type: "text", text: t }] });
const assistant = (t: string): ApiMessage => ({ role: "assistant", content: [{ type: "text", text: t }] });

describe("offlineReply", () => {
  it("says it is offline and echoes the last user message", () => {
    const r = offlineReply({ messages: [user("hello there")], model: "claude-sonnet-4-5" });
    expect(r.text.startsWith("[Offline responder — set ANTHROPIC_API_KEY to talk to Claude]")).toBe(true);
    expect(OFFLINE_BANNER).toBe("[Offline responder — set ANTHROPIC_API_KEY to talk to Claude]");
    expect(r.text).toContain('You said: "hello there"');
    expect(r.text).toContain("turn 1");
  });

  it("truncates long messages to 300 characters", () => {
    const long = "x".repeat(500);
    const r = offlineReply({ messages: [user(long)], model: "claude-sonnet-4-5" });
    expect(r.text).toContain(`You said: "${"x".repeat(300)}…"`);
    expect(r.text).not.toContain("x".repeat(301));
  });

  it("counts turns, not tool-result messages", () => {
    const messages: ApiMessage[] = [
      user("one"),
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "run", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      assistant("done"),
      user("two"),
    ];
    const r = offlineReply({ messages, model: "claude-sonnet-5-5" });
    expect(r.text).toContain("turn 2");
    expect(r.text).toContain("5 message(s)");
    expect(r.text).toContain('You said: "two"');
  });

  it("simulates input tokens per tokenizer family", () => {
    expect(offlineReply({ messages: [user("hello there")], model: "claude-sonnet-4-5" }).inputTokens).toBe(8);
    expect(offlineReply({ messages: [user("hello there")], model: "claude-sonnet-5-5" }).inputTokens).toBe(9);
    expect(offlineReply({ messages: [user("hello there")], system: "x".repeat(35), model: "claude-sonnet-4-5" }).inputTokens).toBe(
      Math.ceil(46 / 3.5) + 4,
    );
  });

  it("is deterministic", () => {
    const input = { messages: [user("a"), assistant("b"), user("c")], system: "sys", model: "claude-haiku-5-5" };
    expect(offlineReply(input)).toEqual(offlineReply(input));
  });

  it("copes with no user text", () => {
    expect(offlineReply({ messages: [], model: "claude-sonnet-4-5" }).text).toContain("no user message");
  });
});

describe("streamOffline", () => {
  it("yields word chunks that join back to the exact text", async () => {
    const text = "  Hello there,\n\nthis is   offline. ";
    const chunks: string[] = [];
    for await (const c of streamOffline(text, 0)) chunks.push(c);
    expect(chunks.join("")).toBe(text);
    expect(chunks).toEqual(["  ", "Hello ", "there,\n\n", "this ", "is   ", "offline. "]);
  });

  it("yields nothing for empty text", async () => {
    const chunks: string[] = [];
    for await (const c of streamOffline("", 0)) chunks.push(c);
    expect(chunks).toEqual([]);
  });
});
