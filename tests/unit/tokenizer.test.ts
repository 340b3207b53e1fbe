import { describe, it, expect } from "vitest";
import {
  estimateBlocksTokens,
  estimateMessageTokens,
  estimateSystemTokens,
  estimateTextTokens,
  estimateToolsTokens,
} from "@/lib/tokens/tokenizer";
import { estimateRequestTokens } from "@/lib/tokens/request";

describe("estimateTextTokens", () => {
  it("counts cl100k tokens", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("hello world")).toBe(2);
    expect(estimateTextTokens("You are a helpful assistant.")).toBe(6);
  });

  it("counts special-token text as plain text instead of throwing", () => {
    expect(estimateTextTokens("hi <|endoftext|> x")).toBeGreaterThan(3);
  });

  it("grows with the text", () => {
    const one = estimateTextTokens("lorem ipsum dolor sit amet ");
    expect(estimateTextTokens("lorem ipsum dolor sit amet ".repeat(100))).toBeGreaterThan(one * 50);
  });
});

describe("estimateBlocksTokens", () => {
  it("charges an image by its size (the API's 28-pixel patches), and the standard tier's cap when its size is unknown", () => {
    expect(estimateBlocksTokens([{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" }, threadkeeper: { width: 1920, height: 1080 } }])).toBe(1560);
    expect(estimateBlocksTokens([{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" }, threadkeeper: { width: 280, height: 56 } }])).toBe(20);
    expect(estimateBlocksTokens([{ type: "image", source: { type: "url", url: "https://example.com/a.png" } }])).toBe(1568);
  });

  it("counts tool_use as name + JSON input + 10", () => {
    expect(estimateBlocksTokens([{ type: "tool_use", id: "t1", name: "get_weather", input: { city: "Paris" } }])).toBe(2 + 5 + 10);
  });

  it("counts tool_result as its text + 5, string or blocks", () => {
    expect(estimateBlocksTokens([{ type: "tool_result", tool_use_id: "t1", content: "hello world" }])).toBe(7);
    expect(
      estimateBlocksTokens([
        { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "hello" }, { type: "text", text: "world" }] },
      ]),
    ).toBe(3 + 5);
  });

  it("sums mixed blocks", () => {
    expect(
      estimateBlocksTokens([
        { type: "text", text: "hello world" },
        { type: "image", source: { type: "url", url: "u" } },
      ]),
    ).toBe(1570);
  });
});

describe("message, system and tools estimates", () => {
  it("adds 4 tokens of framing per message", () => {
    expect(estimateMessageTokens("user", [{ type: "text", text: "hello world" }])).toBe(6);
    expect(estimateMessageTokens("assistant", [])).toBe(4);
  });

  it("counts the system prompt", () => {
    expect(estimateSystemTokens("")).toBe(0);
    expect(estimateSystemTokens("You are a helpful assistant.")).toBe(6);
  });

  it("counts tool definitions as name + description + schema + 10", () => {
    expect(estimateToolsTokens([])).toBe(0);
    const schema = { type: "object", properties: { q: { type: "string" } } };
    expect(estimateToolsTokens([{ name: "search", description: "Search the web", input_schema: schema }])).toBe(1 + 3 + 14 + 10);
    expect(estimateToolsTokens([{ name: "search", input_schema: schema }])).toBe(1 + 14 + 10);
  });
});

describe("estimateRequestTokens", () => {
  it("adds stored message counts to system and tools", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const r = estimateRequestTokens({
      system: "You are a helpful assistant.",
      tools: [{ name: "search", description: "Search the web", input_schema: schema }],
      messages: [{ tokenCount: 10 }, { tokenCount: 20 }, { tokenCount: 30 }],
    });
    expect(r).toEqual({ system: 6, tools: 28, messages: 60, total: 94 });
  });

  it("needs nothing but the messages", () => {
    expect(estimateRequestTokens({ messages: [] })).toEqual({ system: 0, tools: 0, messages: 0, total: 0 });
  });
});
