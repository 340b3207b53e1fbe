// Server tools, structured output, mid-conversation system messages and the fake's strictness
// about block types, driven by the real SDK.
import Anthropic from "@anthropic-ai/sdk";
import { zodOutputFormat } from "@anthropic-ai/sdk/helpers/zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeAnthropicControl } from "../fake-anthropic/control";
import { valueForSchema } from "../fake-anthropic/structured";
import { fakeTokenCount, startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { CONTENT_BLOCK_TYPES } from "../fake-anthropic/validate";
import { badRequest } from "./helpers/bad-request";

let fake: FakeAnthropic;
let client: Anthropic;
const model = "claude-sonnet-5-5";
const webSearch: Anthropic.WebSearchTool20250305 = { type: "web_search_20250305", name: "web_search" };
const results = [{ url: "https://example.com/tides", title: "Tides explained", snippet: "Tides are caused by the moon." }];

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("web search", () => {
  for (const streaming of [false, true]) {
    it(`returns server_tool_use, the results and a cited answer (${streaming ? "streaming" : "non-streaming"})`, async () => {
      fake.enqueue({ kind: "web_search", query: "what causes tides", results });
      const params = { model, max_tokens: 500, tools: [webSearch], messages: [{ role: "user" as const, content: "What causes tides?" }] };
      const message = streaming ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      expect(message.content.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
      expect(message.content[0]).toMatchObject({ type: "server_tool_use", name: "web_search", input: { query: "what causes tides" } });
      const result = message.content[1] as Anthropic.WebSearchToolResultBlock;
      expect(result.tool_use_id).toBe((message.content[0] as Anthropic.ServerToolUseBlock).id);
      expect(result.content).toEqual([{ type: "web_search_result", url: results[0].url, title: results[0].title, page_age: "2 days ago", encrypted_content: expect.any(String) }]);
      expect((message.content[2] as Anthropic.TextBlock).citations).toEqual([
        { type: "web_search_result_location", url: results[0].url, title: results[0].title, cited_text: results[0].snippet, encrypted_index: expect.any(String) },
      ]);
      expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    });
  }

  it("accepts the blocks back in the next request and counts the results' page text", async () => {
    fake.enqueue({ kind: "web_search", query: "tides", results });
    const first = await client.messages.create({ model, max_tokens: 500, tools: [webSearch], messages: [{ role: "user", content: "tides?" }] });
    const messages: Anthropic.MessageParam[] = [
      { role: "user", content: "tides?" },
      { role: "assistant", content: first.content as unknown as Anthropic.ContentBlockParam[] },
      { role: "user", content: "thanks" },
    ];
    const withResults = await client.messages.countTokens({ model, tools: [webSearch], messages });
    const assistantText = first.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
    expect(withResults.input_tokens).toBeGreaterThan(fakeTokenCount(`tides?\n${assistantText.join("\n")}\nthanks`) + fakeTokenCount(results[0].snippet));
    await expect(client.messages.create({ model, max_tokens: 100, tools: [webSearch], messages })).resolves.toBeDefined();
  });

  it("is a scripting error without a web_search tool", async () => {
    fake.enqueue({ kind: "web_search", query: "q", results });
    expect(await badRequest(client.messages.create({ model, max_tokens: 100, messages: [{ role: "user", content: "q" }] }))).toContain("needs a web_search_* tool");
  });

  it("can be queued over the control endpoint", async () => {
    await fakeAnthropicControl(fake.url).enqueue({ kind: "web_search", query: "q", results: [{ url: "https://a.example", title: "A", pageAge: null }] });
    const message = await client.messages.create({ model, max_tokens: 100, tools: [webSearch], messages: [{ role: "user", content: "q" }] });
    expect((message.content[1] as Anthropic.WebSearchToolResultBlock).content).toMatchObject([{ page_age: null }]);
  });
});

describe("structured output", () => {
  const Answer = z.object({
    city: z.string(),
    population: z.number().int().min(1),
    tags: z.array(z.enum(["coastal", "inland"])),
    mayor: z.string().nullable(),
    capital: z.boolean(),
  });

  for (const streaming of [false, true]) {
    it(`answers JSON the client parses with its own schema (${streaming ? "streaming" : "non-streaming"})`, async () => {
      const params = { model, max_tokens: 500, messages: [{ role: "user" as const, content: "Tell me about Lisbon" }], output_config: { format: zodOutputFormat(Answer), effort: "low" as const } };
      const text = streaming
        ? (await client.messages.stream(params).finalMessage()).content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("")
        : (await client.messages.parse(params)).parsed_output;
      const parsed = Answer.parse(typeof text === "string" ? JSON.parse(text) : text);
      expect(parsed.population).toBeGreaterThanOrEqual(1);
      expect(fake.lastBody()?.output_config).toMatchObject({ effort: "low", format: { type: "json_schema" } });
    });
  }

  it("accepts the beta output_format spelling", async () => {
    const message = await client.beta.messages.parse({ model, max_tokens: 500, messages: [{ role: "user", content: "Lisbon" }], output_format: zodOutputFormat(Answer) });
    expect(Answer.parse(message.parsed_output)).toBeDefined();
  });

  it("generates values for refs, unions and bounds", () => {
    const schema = {
      type: "object",
      properties: { item: { $ref: "#/$defs/Item" }, maybe: { anyOf: [{ type: "null" }, { type: "integer", minimum: 3 }] }, list: { type: "array", items: { const: 7 }, minItems: 2 } },
      $defs: { Item: { type: "object", properties: { when: { type: "string", format: "date" } } } },
    };
    expect(valueForSchema(schema, "x")).toEqual({ item: { when: "2026-01-01" }, maybe: 3, list: [7, 7] });
    expect(valueForSchema({ type: "integer", description: "{minimum: 5, maximum: 9}" }, "")).toBe(5);
  });
});

describe("request shapes", () => {
  it("accepts a system message mid-conversation and counts it as a message", async () => {
    const base: Anthropic.MessageParam[] = [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }];
    const withSystem = [...base, { role: "system" as const, content: "Answer in French." }, { role: "user" as const, content: "again" }];
    const plain = [...base, { role: "user" as const, content: "again" }];
    const a = await client.messages.countTokens({ model, messages: withSystem });
    const b = await client.messages.countTokens({ model, messages: plain });
    expect(a.input_tokens - b.input_tokens).toBe(fakeTokenCount("hi\nhello\nAnswer in French.\nagain") - fakeTokenCount("hi\nhello\nagain") + 3);
    const message = await client.messages.create({ model, max_tokens: 100, messages: withSystem });
    expect(message.content[0]).toMatchObject({ type: "text", text: "Echo: again" });
    expect(await badRequest(client.messages.create({ model, max_tokens: 100, messages: [{ role: "system", content: "first" }, ...plain] }))).toContain('first message must use the \\"user\\" role');
  });

  it("records unknown top-level fields and refuses unknown block types, naming the type", async () => {
    await client.messages.create({
      model,
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
      metadata: { user_id: "u1" },
      service_tier: "auto",
      ...({ context_management: { edits: [] }, speed: "fast" } as object),
    });
    expect(fake.lastBody()).toMatchObject({ metadata: { user_id: "u1" }, service_tier: "auto", context_management: { edits: [] }, speed: "fast" });
    const bogus = [{ type: "hologram", text: "x" }] as unknown as Anthropic.ContentBlockParam[];
    const message = await badRequest(client.messages.create({ model, max_tokens: 100, messages: [{ role: "user", content: bogus }] }));
    expect(message).toContain("messages.0.content.0: Input tag 'hologram' found using 'type' does not match any of the expected tags");
  });

  it("knows every member of the SDK's ContentBlockParam union", () => {
    type SdkType = Anthropic.ContentBlockParam["type"];
    type FakeType = (typeof CONTENT_BLOCK_TYPES)[number];
    // A type the SDK adds (or the fake invents) stops this file compiling until the list agrees.
    const exact: [Exclude<SdkType, FakeType>, Exclude<FakeType, SdkType>] extends [never, never] ? true : false = true;
    expect(exact).toBe(true);
});
});

describe("directives", () => {
  it("script a web search and a cited reply from typed text, for browser tests", async () => {
    const search = await client.messages.create({ model, max_tokens: 100, tools: [webSearch], messages: [{ role: "user", content: "[[web_search:moon phases]]" }] });
    expect(search.content[0]).toMatchObject({ type: "server_tool_use", input: { query: "moon phases" } });
    const doc: Anthropic.DocumentBlockParam = { type: "document", source: { type: "text", media_type: "text/plain", data: "Grass is green." }, citations: { enabled: true } };
    const cited = await client.messages.create({ model, max_tokens: 100, messages: [{ role: "user", content: [doc, { type: "text", text: "[[cite:0]]" }] }] });
    expect((cited.content[1] as Anthropic.TextBlock).citations).toMatchObject([{ type: "char_location", cited_text: "Grass is green." }]);
  });
});
