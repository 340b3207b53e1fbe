// An OpenAI Chat Completions request as the drop-in's Messages API request: each field as
// Anthropic's compatibility layer maps it, and only those fields.
import { describe, expect, it } from "vitest";
import { defaultMaxTokens, JSON_OBJECT_INSTRUCTION, toAnthropic } from "@/lib/api/openai/request";
import { openaiChatRequest } from "@/lib/contract/openai";
import { AppError } from "@/lib/errors";
import { requireModel } from "@/lib/models";

const MODEL = "claude-haiku-4-5";
const translate = (body: Record<string, unknown>) => toAnthropic(openaiChatRequest.parse({ model: MODEL, ...body }));
const user = (content: unknown) => ({ role: "user", content });
const failure = (body: Record<string, unknown>) => {
  try {
    translate(body);
  } catch (e) {
    return e as AppError;
  }
  throw new Error("no failure");
};

describe("toAnthropic", () => {
  it("hoists system and developer messages into one system prompt and merges consecutive tool results into one user message", () => {
    const r = translate({
      messages: [
        { role: "system", content: "Be terse." },
        user("Weather in Oslo and Bergen?"),
        { role: "developer", content: [{ type: "text", text: "Use Celsius." }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "w", arguments: '{"city":"Oslo"}' } },
            { id: "call_b", type: "function", function: { name: "w", arguments: "" } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "4°C" },
        { role: "tool", tool_call_id: "call_b", content: [{ type: "text", text: "9°C" }] },
      ],
    });
    expect(r.system).toBe("Be terse.\nUse Celsius.");
    expect(r.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather in Oslo and Bergen?" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_a", name: "w", input: { city: "Oslo" } },
          { type: "tool_use", id: "call_b", name: "w", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_a", content: "4°C" },
          { type: "tool_result", tool_use_id: "call_b", content: "9°C" },
        ],
      },
    ]);
  });

  it("maps sampling, stop, user and max tokens, and sends nothing it does not map", () => {
    const r = translate({
      messages: [user("hi")],
      temperature: 1.7,
      top_p: 0.5,
      stop: "\n\nEND",
      user: "u-1",
      max_tokens: 100,
      max_completion_tokens: 200,
      seed: 1,
      logprobs: true,
      metadata: { a: "b" },
      some_future_field: 1,
    });
    expect(r).toEqual({ model: MODEL, messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], max_tokens: 200, stream: false, temperature: 1, top_p: 0.5, stop_sequences: ["\n\nEND"], metadata: { user_id: "u-1" } });
    // Whitespace-only stop sequences do not work on Claude; a `user` longer than Claude's limit is not sent.
    const r2 = translate({ messages: [user("hi")], stop: [" ", "\n"], user: "x".repeat(300), temperature: 0.3 });
    expect(r2).not.toHaveProperty("stop_sequences");
    expect(r2).not.toHaveProperty("metadata");
    expect(r2.temperature).toBe(0.3);
    expect(r2.max_tokens).toBe(defaultMaxTokens(requireModel(MODEL)));
    expect(defaultMaxTokens(requireModel(MODEL))).toBe(40_000);
    expect(defaultMaxTokens(requireModel("claude-opus-5-5"))).toBe(128_000);
  });

  it("maps tools and each tool_choice, parallel_tool_calls: false included", () => {
    const tools = [{ type: "function", function: { name: "w", description: "Weather", parameters: { properties: { city: { type: "string" } } }, strict: true } }, { type: "function", function: { name: "t" } }];
    const r = translate({ messages: [user("hi")], tools });
    expect(r.tools).toEqual([
      { name: "w", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } },
      { name: "t", input_schema: { type: "object", properties: {} } },
    ]);
    expect(r).not.toHaveProperty("tool_choice");
    const choice = (tool_choice: unknown, parallel_tool_calls?: boolean) => translate({ messages: [user("hi")], tools, tool_choice, parallel_tool_calls }).tool_choice;
    expect(choice("auto")).toEqual({ type: "auto" });
    expect(choice("none")).toEqual({ type: "none" });
    expect(choice("required")).toEqual({ type: "any" });
    expect(choice({ type: "function", function: { name: "t" } }, false)).toEqual({ type: "tool", name: "t", disable_parallel_tool_use: true });
    expect(choice(undefined, false)).toEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(failure({ messages: [user("hi")], tools, tool_choice: { type: "function", function: { name: "x" } } }).details).toEqual({ param: "tool_choice" });
    // Without tools of the caller's, a tool_choice would steer Claude to Threadkeeper's own.
    expect(translate({ messages: [user("hi")], tool_choice: "required" })).not.toHaveProperty("tool_choice");
  });

  it("response_format: json_schema is output_config.format, json_object an instruction, text nothing", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(translate({ messages: [user("hi")], response_format: { type: "json_schema", json_schema: { name: "x", schema, strict: true } } }).output_config).toEqual({ format: { type: "json_schema", schema } });
    expect(translate({ messages: [user("hi")], response_format: { type: "json_object" } }).system).toBe(JSON_OBJECT_INSTRUCTION);
    expect(translate({ messages: [user("hi")], response_format: { type: "text" } })).not.toHaveProperty("system");
  });

  it("user parts: data: images and files become base64 blocks, audio is stripped, anything else is a 400 naming the part", () => {
    const r = translate({
      messages: [
        user([
          { type: "text", text: "Look" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA", detail: "high" } },
          { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } },
          { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBE" } },
          { type: "file", file: { filename: "notes.txt", file_data: `data:text/plain;base64,${Buffer.from("plain words").toString("base64")}` } },
        ]),
      ],
    });
    expect(r.messages[0].content).toEqual([
      { type: "text", text: "Look" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAAA" } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBE" }, title: "a.pdf" },
      { type: "document", source: { type: "text", media_type: "text/plain", data: "plain words" }, title: "notes.txt" },
    ]);
    const part = (p: unknown) => failure({ messages: [user([p])] });
    expect(part({ type: "image_url", image_url: { url: "https://x.test/a.png" } }).details).toEqual({ param: "messages.0.content.0.image_url.url" });
    expect(part({ type: "image_url", image_url: { url: "ftp://x.test/a.png" } }).status).toBe(400);
    expect(part({ type: "image_url", image_url: { url: "data:text/plain;base64,AAAA" } }).message).toMatch(/not an image/);
    expect(part({ type: "file", file: { file_id: "file-1" } }).message).toMatch(/file_data/);
    expect(part({ type: "file", file: { file_data: "data:text/plain;base64,not base64!" } }).message).toMatch(/not valid base64/);
  });

  it("an unknown model is OpenAI's 404 model_not_found; n other than 1 is refused by the contract", () => {
    const e = failure({ model: "gpt-4o", messages: [user("hi")] });
    expect([e.status, e.code]).toEqual([404, "model_not_found"]);
    expect(openaiChatRequest.safeParse({ model: MODEL, messages: [user("hi")], n: 2 }).success).toBe(false);
  });
});
