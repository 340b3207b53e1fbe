// The drop-in as the ecosystem's own clients use it: the Vercel AI SDK (@ai-sdk/anthropic) and
// LangChain (@langchain/anthropic), each through a conversation with thinking, a PDF and a tool
// loop, and each one's structured output (output_config.format), which must reach Claude
// unchanged for their parsers to get JSON back. Their fetch is handed to our route handlers; the
// fake Anthropic server is Threadkeeper's upstream and checks the thinking signatures.
import { createAnthropic } from "@ai-sdk/anthropic";
import { ChatAnthropic } from "@langchain/anthropic";
import { HumanMessage } from "@langchain/core/messages";
import { tool as langchainTool } from "@langchain/core/tools";
import { generateObject, generateText, jsonSchema, stepCountIs, tool, type JSONSchema7 } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as keysRoute from "@/app/api/keys/route";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import type { CreatedApiKeyJson } from "@/lib/contract";
import { makePdf } from "../fake-anthropic/server";
import { req, useHarness } from "./harness";

const h = useHarness();
const BASE = "http://127.0.0.1:3000/api/anthropic";

function dispatch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  if (new URL(request.url).pathname.endsWith("/v1/messages")) return messagesRoute.POST(request, undefined);
  return Promise.resolve(new Response("no route", { status: 599 }));
}

let key = "";
beforeAll(async () => {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: "clients", scopes: ["read", "write"] }), undefined);
  key = ((await res.json()) as CreatedApiKeyJson).secret;
});

/** Claude's requests for replies, as the fake received them (Threadkeeper's own title calls are not streamed by these clients' answers). */
const chatBodies = (model: string) => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.model === model).map((r) => r.body ?? {});

const PDF = () => makePdf(["The obsidian ferry leaves at 07:40.", "It returns at 19:10."]);
const PERSON: JSONSchema7 = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false };

describe("the Vercel AI SDK", () => {
  const model = "claude-haiku-4-5";
  const anthropic = () => createAnthropic({ baseURL: `${BASE}/v1`, apiKey: key, fetch: dispatch });

  it("completes a conversation with thinking, a PDF file part and a tool loop", async () => {
    h.fake.enqueue(
      { forModel: model, kind: "tool_use", name: "ferry_status", input: { ferry: "obsidian" } },
      { forModel: model, kind: "reply", text: "The obsidian ferry is on time, leaving at 07:40." },
    );
    const result = await generateText({
      model: anthropic()(model),
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } },
      maxOutputTokens: 4096,
      tools: {
        ferry_status: tool({ description: "Is a ferry on time?", inputSchema: z.object({ ferry: z.string() }), execute: async () => ({ on_time: true }) }),
      },
      stopWhen: stepCountIs(4),
      messages: [
        {
          role: "user",
          content: [
            { type: "file", data: PDF(), mediaType: "application/pdf", filename: "ferry.pdf" },
            { type: "text", text: "When does the ferry leave, and is it on time?" },
          ],
        },
      ],
    });
    expect(result.text).toContain("07:40");
    expect(result.steps.length).toBe(2);
    expect(result.reasoningText ?? "").not.toBe("");
    const bodies = chatBodies(model);
    const last = bodies.at(-1) as { thinking: unknown; messages: { role: string; content: { type: string }[] }[] };
    expect(last.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(last.messages[0].content[0]).toMatchObject({ type: "document", source: { type: "base64", media_type: "application/pdf" } });
    // The tool loop's thinking went back unchanged: the fake verified its signature.
    expect(last.messages.find((m) => m.role === "assistant")?.content[0].type).toBe("thinking");
  });

  it("generateObject: output_config.format reaches Claude and the object parses", async () => {
    const sonnet = "claude-sonnet-5-5";
    const { object } = await generateObject({
      model: anthropic()(sonnet),
      schema: jsonSchema<{ name: string; age: number }>(PERSON),
      prompt: "Invent a person.",
    });
    expect(typeof object.name).toBe("string");
    expect(Number.isInteger(object.age)).toBe(true);
    const sent = chatBodies(sonnet).at(-1) as { output_config?: { format?: { type: string; schema: unknown } } };
    expect(sent.output_config?.format?.type).toBe("json_schema");
  });
});

describe("LangChain", () => {
  const model = "claude-haiku-4-5";
  const chat = (extra: Record<string, unknown> = {}) =>
    new ChatAnthropic({ model, apiKey: key, anthropicApiUrl: BASE, maxTokens: 4096, clientOptions: { fetch: dispatch, maxRetries: 0 }, ...extra });

  it("completes a conversation with thinking, a PDF and a tool loop", async () => {
    h.fake.enqueue(
      { forModel: model, kind: "tool_use", name: "ferry_status", input: { ferry: "obsidian" } },
      { forModel: model, kind: "reply", text: "It returns at 19:10 and is on time." },
    );
    const status = langchainTool(async () => JSON.stringify({ on_time: true }), { name: "ferry_status", description: "Is a ferry on time?", schema: z.object({ ferry: z.string() }) });
    const llm = chat({ thinking: { type: "enabled", budget_tokens: 2048 } }).bindTools([status]);
    const question = new HumanMessage({
      content: [
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF().toString("base64") } },
        { type: "text", text: "When does it return, and is it on time?" },
      ],
    });
    const first = await llm.invoke([question]);
    expect(first.tool_calls?.[0]?.name).toBe("ferry_status");
    const call = first.tool_calls?.[0];
    if (!call?.id) throw new Error("no tool call");
    const result = await status.invoke({ ...call, type: "tool_call", id: call.id });
    const second = await llm.invoke([question, first, result]);
    expect(JSON.stringify(second.content)).toContain("19:10");
    const last = chatBodies(model).at(-1) as { messages: { role: string; content: { type: string }[] }[] };
    expect(last.messages.find((m) => m.role === "assistant")?.content[0].type).toBe("thinking");
    expect(last.messages[0].content[0].type).toBe("document");
  });

  it("a streamed call counts its input tokens (LangChain reads them from message_start only)", async () => {
    let text = "";
    let usage: { input_tokens: number; output_tokens: number } | undefined;
    for await (const chunk of await chat({ streaming: true }).stream([new HumanMessage("Count what I sent you.")])) {
      text += typeof chunk.content === "string" ? chunk.content : "";
      if (chunk.usage_metadata) usage = { input_tokens: (usage?.input_tokens ?? 0) + chunk.usage_metadata.input_tokens, output_tokens: (usage?.output_tokens ?? 0) + chunk.usage_metadata.output_tokens };
    }
    expect(text).toContain("Count what I sent you.");
    expect(usage?.input_tokens).toBeGreaterThan(0);
    expect(usage?.output_tokens).toBeGreaterThan(0);
    const invoked = await chat({ streaming: true }).invoke([new HumanMessage("Once more, through invoke.")]);
    expect(invoked.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });

  it('withStructuredOutput({ method: "jsonSchema" }) gets JSON back through output_config', async () => {
    const sonnet = "claude-sonnet-5-5";
    const structured = new ChatAnthropic({ model: sonnet, apiKey: key, anthropicApiUrl: BASE, maxTokens: 1024, clientOptions: { fetch: dispatch, maxRetries: 0 } }).withStructuredOutput(
      z.object({ name: z.string(), age: z.number().int() }),
      { method: "jsonSchema" },
    );
    const person = await structured.invoke("Invent a person.");
    expect(typeof person.name).toBe("string");
    const sent = chatBodies(sonnet).at(-1) as { output_config?: { format?: { type: string } } };
    expect(sent.output_config?.format?.type).toBe("json_schema");
  });
});
