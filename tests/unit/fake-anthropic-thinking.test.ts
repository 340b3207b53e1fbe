// The fake's extended thinking, driven by the real SDK: blocks and their stream events, signatures
// checked on the way back, the preserved-thinking prefix check, and how thinking is counted.
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fakeTokenCount, startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import { badRequest } from "./helpers/bad-request";

let fake: FakeAnthropic;
let client: Anthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const enabled = { type: "enabled", budget_tokens: 1024 } as const;
const tools: Anthropic.Tool[] = [{ name: "lookup", description: "Look a word up", input_schema: { type: "object", properties: { word: { type: "string" } } } }];
const asParams = (content: ContentBlock[]): Anthropic.ContentBlockParam[] => content as unknown as Anthropic.ContentBlockParam[];

describe("thinking blocks", () => {
  it("starts a reply with a signed thinking block derived from the user's text", async () => {
    const message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 4096, thinking: enabled, messages: [{ role: "user", content: "Why is the sky blue?" }] });
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    const thinking = message.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.thinking).toBe("Considering: Why is the sky blue?");
    expect(thinking.signature).toMatch(/\./);
    const text = (message.content[1] as Anthropic.TextBlock).text;
    expect(message.usage.output_tokens).toBe(fakeTokenCount(`${thinking.thinking}\n${text}`));
  });

  it("streams thinking as start, thinking_delta frames, one signature_delta, stop", async () => {
    const stream = client.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 4096, thinking: enabled, messages: [{ role: "user", content: "Tell me about tides and moons" }] });
    const events: Anthropic.MessageStreamEvent[] = [];
    stream.on("streamEvent", (e) => events.push(e));
    const final = await stream.finalMessage();
    const start = events.find((e) => e.type === "content_block_start");
    expect(start).toMatchObject({ index: 0, content_block: { type: "thinking", thinking: "", signature: "" } });
    const deltas = events.flatMap((e) => (e.type === "content_block_delta" && e.index === 0 ? [e.delta.type] : []));
    expect(deltas.filter((t) => t === "thinking_delta").length).toBeGreaterThan(1);
    expect(deltas.at(-1)).toBe("signature_delta");
    expect(deltas.filter((t) => t === "signature_delta")).toHaveLength(1);
    expect(final.content[0]).toMatchObject({ type: "thinking", thinking: "Considering: Tell me about tides and moons" });
  });

  it("adds a redacted_thinking block when a step asks for one, and accepts it back", async () => {
    fake.enqueue({ kind: "reply", text: "Done.", redactedThinking: true, thinking: "Private plan" });
    const first = await client.messages.create({ model: "claude-opus-4-5", max_tokens: 4096, thinking: enabled, messages: [{ role: "user", content: "go" }] });
    expect(first.content.map((b) => b.type)).toEqual(["redacted_thinking", "thinking", "text"]);
    const messages: MessageParam[] = [{ role: "user", content: "go" }, { role: "assistant", content: asParams(first.content) }, { role: "user", content: "again" }];
    await expect(client.messages.create({ model: "claude-opus-4-5", max_tokens: 4096, thinking: enabled, messages })).resolves.toBeDefined();
    const tampered = structuredClone(messages);
    (tampered[1].content as Anthropic.RedactedThinkingBlockParam[])[0].data += "x";
    expect(await badRequest(client.messages.create({ model: "claude-opus-4-5", max_tokens: 4096, thinking: enabled, messages: tampered }))).toContain(
      "messages.1.content.0: Invalid `data` in `redacted_thinking` block",
    );
  });

  it("validates budget_tokens and the model's thinking modes like the API", async () => {
    const base = { model: "claude-sonnet-4-5", messages: [{ role: "user" as const, content: "hi" }] };
    expect(await badRequest(client.messages.create({ ...base, max_tokens: 4096, thinking: { type: "enabled", budget_tokens: 512 } }))).toContain("greater than or equal to 1024");
    expect(await badRequest(client.messages.create({ ...base, max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 2000 } }))).toContain("`max_tokens` must be greater than `thinking.budget_tokens`");
    expect(await badRequest(client.messages.create({ ...base, model: "claude-opus-5-5", max_tokens: 4096, thinking: { type: "disabled" } }))).toMatch(/thinking\.type\.disabled\\" is not supported for this model/);
    expect(await badRequest(client.messages.create({ ...base, model: "claude-opus-4-7", max_tokens: 4096, thinking: enabled }))).toMatch(/thinking\.type\.enabled\\" is not supported/);
    const plain = await client.messages.create({ ...base, max_tokens: 100, thinking: { type: "disabled" } });
    expect(plain.content.map((b) => b.type)).toEqual(["text"]);
  });

  it("thinks by default on Opus 5.5 and hides the text there (display omitted) while charging for it", async () => {
    const message = await client.messages.create({ model: "claude-opus-5-5", max_tokens: 4096, messages: [{ role: "user", content: "plan a trip" }] });
    expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "" });
    const hidden = "Considering: plan a trip";
    expect(message.usage.output_tokens).toBe(fakeTokenCount(`\n${(message.content[1] as Anthropic.TextBlock).text}\n${hidden}`));
    const shown = await client.messages.create({ model: "claude-opus-5-5", max_tokens: 4096, thinking: { type: "adaptive", display: "summarized" }, messages: [{ role: "user", content: "plan a trip" }] });
    expect(shown.content[0]).toMatchObject({ type: "thinking", thinking: hidden });
  });
});

describe("thinking blocks sent back", () => {
  const loops = [
    { model: "claude-sonnet-5-5", thinking: { type: "adaptive", display: "summarized" } as const, streaming: false },
    { model: "claude-sonnet-5-5", thinking: { type: "adaptive", display: "summarized" } as const, streaming: true },
    { model: "claude-sonnet-4-5", thinking: enabled, streaming: false },
    { model: "claude-sonnet-4-5", thinking: enabled, streaming: true },
  ];
  for (const { model, thinking, streaming } of loops) {
    it(`accepts the unchanged blocks through a tool loop (${model}, ${thinking.type}, ${streaming ? "streaming" : "non-streaming"})`, async () => {
      fake.enqueue({ kind: "tool_use", name: "lookup", input: { word: "tide" } }, { kind: "reply", text: "A tide is the sea rising." });
      const send = (messages: MessageParam[]) => {
        const params = { model, max_tokens: 4096, thinking, tools, messages };
        return streaming ? client.messages.stream(params).finalMessage() : client.messages.create(params);
      };
      const messages: MessageParam[] = [{ role: "user", content: "What is a tide?" }];
      const first = await send(messages);
      expect(first.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
      const toolUse = first.content[1] as Anthropic.ToolUseBlock;
      messages.push({ role: "assistant", content: asParams(first.content) }, { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "the rise of the sea" }] });
      const second = await send(messages);
      expect(second.content.map((b) => b.type)).toEqual(["thinking", "text"]);

      const tampered = structuredClone(messages);
      (tampered[1].content as Anthropic.ThinkingBlockParam[])[0].thinking += " (edited)";
      fake.enqueue({ kind: "reply", text: "unused" });
      expect(await badRequest(send(tampered))).toContain("messages.1.content.0: Invalid `signature` in `thinking` block");
    });
  }

  it("refuses a tool loop whose assistant turn lost its thinking, with budgeted thinking", async () => {
    fake.enqueue({ kind: "tool_use", name: "lookup", input: {} });
    const first = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 4096, thinking: enabled, tools, messages: [{ role: "user", content: "x" }] });
    const toolUse = first.content[1] as Anthropic.ToolUseBlock;
    const message = await badRequest(
      client.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 4096,
        thinking: enabled,
        tools,
        messages: [{ role: "user", content: "x" }, { role: "assistant", content: [toolUse] }, { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "r" }] }],
      }),
    );
    expect(message).toContain("a final `assistant` message must start with a thinking block");
  });

  it("binds a block to its prefix on prefix-check models: 400 when an earlier message changed, drop_block drops it and reports it", async () => {
    const model = "claude-fable-5-1";
    const first = await client.messages.create({ model, max_tokens: 4096, system: "Be brief.", messages: [{ role: "user", content: "hello" }] });
    const history: MessageParam[] = [{ role: "user", content: "hello" }, { role: "assistant", content: asParams(first.content) }, { role: "user", content: "more" }];
    await expect(client.messages.create({ model, max_tokens: 4096, system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }], messages: history })).resolves.toBeDefined();

    const edited = structuredClone(history);
    edited[0].content = "hello, edited";
    expect(await badRequest(client.messages.create({ model, max_tokens: 4096, system: "Be brief.", messages: edited }))).toContain(
      "messages.1.content.0: The block is bound to a different conversation",
    );
    expect(await badRequest(client.messages.create({ model, max_tokens: 4096, system: "Be terse.", messages: history }))).toContain("`system` prompt");

    const dropped = await client.beta.messages.create({
      model,
      max_tokens: 4096,
      system: "Be brief.",
      thinking: { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } },
      messages: edited as Anthropic.Beta.BetaMessageParam[],
      betas: ["thinking-binding-controls-2026-08-01"],
    });
    expect(dropped.input_transformations).toEqual([{ type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" }]);
  });

  it("drops blocks another model family cannot read, without an error", async () => {
    const first = await client.messages.create({ model: "claude-fable-5-1", max_tokens: 4096, messages: [{ role: "user", content: "hello" }] });
    const history: MessageParam[] = [{ role: "user", content: "hello" }, { role: "assistant", content: asParams(first.content) }, { role: "user", content: "more" }];
    const reply = await client.beta.messages.create({
      model: "claude-opus-5-5",
      max_tokens: 4096,
      messages: history as Anthropic.Beta.BetaMessageParam[],
      betas: ["thinking-binding-controls-2026-08-01"],
    });
    expect(reply.input_transformations).toEqual([{ type: "thinking_dropped", path: "messages.1.content.0", reason: "model_binding_mismatch" }]);
  });

  it("counts earlier turns' thinking only on models that keep it", async () => {
    const count = (model: string, messages: MessageParam[]) => client.messages.countTokens({ model, thinking: enabled, messages }).then((r) => r.input_tokens);
    const first = await client.messages.create({ model: "claude-opus-4-5", max_tokens: 4096, thinking: enabled, messages: [{ role: "user", content: "hello" }] });
    const withThinking: MessageParam[] = [{ role: "user", content: "hello" }, { role: "assistant", content: asParams(first.content) }, { role: "user", content: "more" }];
    const withoutThinking: MessageParam[] = [withThinking[0], { role: "assistant", content: asParams(first.content.slice(1)) }, withThinking[2]];
    // Opus 4.5 keeps earlier thinking in context; Sonnet 4.5 strips it (and does not check it).
    expect(await count("claude-opus-4-5", withThinking)).toBeGreaterThan(await count("claude-opus-4-5", withoutThinking));
    expect(await count("claude-sonnet-4-5", withThinking)).toBe(await count("claude-sonnet-4-5", withoutThinking));
  });
});
