import { describe, expect, it } from "vitest";
import { wireMessages } from "@/lib/context/api-messages";
import { incomingMessages } from "@/lib/context/incoming";
import { dropFailingThinking, markThinking, requestDigest, sendableThinking } from "@/lib/context/thinking";
import type { ApiMessage, ContentBlock } from "@/lib/context/types";
import { requireModel } from "@/lib/models";

const SYSTEM = [{ type: "text", text: "You are helpful." }];
const TOOLS = [{ name: "t", input_schema: { type: "object" } }];
const think = (text: string): ContentBlock => ({ type: "thinking", thinking: text, signature: `sig-${text}` });

/** A conversation as Threadkeeper produced it: each reply's thinking marked with its request's digest. */
function produced(turns: number, system = SYSTEM, tools: unknown = TOOLS): ApiMessage[] {
  const messages: ApiMessage[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: [{ type: "text", text: `question ${i}` }] });
    const digest = requestDigest(system, tools, messages);
    messages.push({ role: "assistant", content: markThinking([think(`t${i}`), { type: "text", text: `answer ${i}` }], digest) });
  }
  return messages;
}

const thinkingOf = (ms: readonly ApiMessage[]) => ms.map((m) => m.content.filter((b) => b.type === "thinking").length);

describe("which earlier thinking a request sends back", () => {
  it("a model that drops earlier thinking gets only the current tool loop's", () => {
    const model = requireModel("claude-sonnet-4-5").thinking;
    const history = produced(2);
    const loop: ApiMessage[] = [
      ...history,
      { role: "user", content: [{ type: "text", text: "next" }] },
      { role: "assistant", content: [think("loop"), { type: "tool_use", id: "x", name: "t", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "ok" }] },
    ];
    const { messages, unverified } = sendableThinking(loop, model, { system: SYSTEM, tools: TOOLS });
    expect(thinkingOf(messages)).toEqual([0, 0, 0, 0, 0, 1, 0]);
    expect(unverified).toBe(false);
  });

  it("a model with the prefix check keeps every block while nothing before it changed", () => {
    const model = requireModel("claude-opus-5-5").thinking;
    const history = [...produced(3), { role: "user" as const, content: [{ type: "text" as const, text: "more" }] }];
    expect(thinkingOf(sendableThinking(history, model, { system: SYSTEM, tools: TOOLS }).messages)).toEqual([0, 1, 0, 1, 0, 1, 0]);
    // The digest ignores cache_control and key order, as the API's check does.
    const marked = history.map((m) => ({ ...m, content: m.content.map((b) => (b.type === "text" ? { cache_control: { type: "ephemeral" }, ...b } : b)) }));
    expect(thinkingOf(sendableThinking(marked, model, { system: SYSTEM, tools: TOOLS }).messages)).toEqual([0, 1, 0, 1, 0, 1, 0]);
  });

  it("a changed prefix (a slid-out turn, a new system prompt) drops that block and every later one", () => {
    const model = requireModel("claude-opus-5-5").thinking;
    const history = [...produced(3), { role: "user" as const, content: [{ type: "text" as const, text: "more" }] }];
    const slid = history.slice(2);
    expect(thinkingOf(sendableThinking(slid, model, { system: SYSTEM, tools: TOOLS }).messages)).toEqual([0, 0, 0, 0, 0]);
    const summary = [...SYSTEM, { type: "text", text: "Summary of earlier turns." }];
    expect(thinkingOf(sendableThinking(history, model, { system: summary, tools: TOOLS }).messages)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // An earlier message edited: blocks before it stay, it and later ones go.
    const edited = history.map((m, i) => (i === 2 ? { ...m, content: [{ type: "text" as const, text: "question one, edited" }] } : m));
    expect(thinkingOf(sendableThinking(edited, model, { system: SYSTEM, tools: TOOLS }).messages)).toEqual([0, 1, 0, 0, 0, 0, 0]);
  });

  it("a client's thinking (no digest) is sent and flagged for the API to verify; models without the check keep everything", () => {
    const client: ApiMessage[] = [
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [think("theirs"), { type: "text", text: "a" }] },
      { role: "user", content: [{ type: "text", text: "q2" }] },
    ];
    const checked = sendableThinking(client, requireModel("claude-sonnet-5-5").thinking, { system: SYSTEM, tools: TOOLS });
    expect(thinkingOf(checked.messages)).toEqual([0, 1, 0]);
    expect(checked.unverified).toBe(true);
    expect(dropFailingThinking(undefined)).toEqual({ type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } });
    expect(dropFailingThinking({ type: "adaptive", block_binding: { prefix_mismatch_behavior: "error" } })).toMatchObject({ block_binding: { prefix_mismatch_behavior: "error" } });
    const unchecked = sendableThinking(client, requireModel("claude-opus-4-8").thinking, { system: SYSTEM, tools: TOOLS });
    expect(thinkingOf(unchecked.messages)).toEqual([0, 1, 0]);
    expect(unchecked.unverified).toBe(false);
  });
});

describe("a client's messages as stored and sent back", () => {
  it("folds system messages into the message beside them and puts them back in place", () => {
    const stored = incomingMessages([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
      { role: "system", content: [{ type: "text", text: "env", cache_control: { type: "ephemeral" } }] },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
      { role: "system", content: "reminder" },
      { role: "user", content: "next" },
    ]);
    expect(stored).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }, { type: "system_message", content: [{ type: "text", text: "env" }] }] },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
      { role: "user", content: [{ type: "system_message", content: "reminder" }, { type: "text", text: "next" }] },
    ]);
    expect(wireMessages(stored).map((m) => m.role)).toEqual(["user", "system", "assistant", "system", "user"]);
  });

  it("keeps a block of an unknown kind whole and sends it back verbatim; Threadkeeper's notes never leave", () => {
    const block = { type: "compaction", content: "summary", encrypted_content: "abc", cache_control: { type: "ephemeral" } };
    const [m] = incomingMessages([{ role: "user", content: [block] }]);
    expect(m.content[0]).toEqual({ type: "opaque", block: { type: "compaction", content: "summary", encrypted_content: "abc" } });
    const doc: ContentBlock = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" }, threadkeeper: { pages: 1, text: "x", tokens: 5 } };
    const sent = wireMessages([{ role: "user", content: [...m.content, doc, markThinking([think("a")], "d")[0]] }]);
    expect(sent[0].content).toEqual([
      { type: "compaction", content: "summary", encrypted_content: "abc" },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
      { type: "thinking", thinking: "a", signature: "sig-a" },
    ]);
  });
});
