// /api/openai/v1 as OpenAI clients use it: the official `openai` SDK (its fetch handed to our route
// handlers) and the AI SDK's OpenAI-compatible provider, real PGlite, and the fake Anthropic
// server as Threadkeeper's upstream, whose recorded requests show what each OpenAI field became.
import OpenAI from "openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as keysRoute from "@/app/api/keys/route";
import * as chatRoute from "@/app/api/openai/v1/chat/completions/route";
import * as modelsRoute from "@/app/api/openai/v1/models/route";
import * as modelRoute from "@/app/api/openai/v1/models/[model_id]/route";
import * as unknownRoute from "@/app/api/openai/[...path]/route";
import * as sessionsRoute from "@/app/api/session/route";
import * as sessionMessagesRoute from "@/app/api/session/[id]/messages/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import { JSON_OBJECT_INSTRUCTION } from "@/lib/api/openai/request";
import type { CreatedApiKeyJson, FileInfo, MessageJson, MessagesPageJson, SessionJson } from "@/lib/contract";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { getSession } from "@/lib/db/sessions";
import { tailMessages } from "@/lib/db/messages";
import { clientView, EMPTY_VIEW, extendDigest } from "@/lib/context/client-history";
import { pngHeader } from "../fake-anthropic/images";
import { idle, params, req, useHarness } from "./harness";

const h = useHarness();
const BASE = "http://127.0.0.1:3000/api/openai/v1";
const MODEL = "claude-haiku-4-5";

/** Where the clients' requests go: the route handler of their path, in this process, as Next.js routes them. */
function dispatch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname;
  if (path.endsWith("/v1/chat/completions")) return chatRoute.POST(request, undefined);
  const model = /\/v1\/models\/([^/]+)$/.exec(path);
  if (model) return modelRoute.GET(request, params({ model_id: decodeURIComponent(model[1]) }));
  if (path.endsWith("/v1/models")) return modelsRoute.GET(request, undefined);
  const rest = path.split("/api/openai/")[1] ?? "";
  return unknownRoute[request.method as "GET" | "POST"](request, { params: Promise.resolve({ path: rest.split("/") }) });
}

let key = "";
let readOnly = "";
const sdk = (apiKey = key, session?: string) =>
  new OpenAI({ apiKey, baseURL: BASE, fetch: dispatch, maxRetries: 0, ...(session ? { defaultHeaders: { "threadkeeper-session-id": session } } : {}) });

async function createKey(scopes: string[]): Promise<string> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: `openai ${scopes.join("+")}`, scopes }), undefined);
  return ((await res.json()) as CreatedApiKeyJson).secret;
}

beforeAll(async () => {
  key = await createKey(["read", "write"]);
  readOnly = await createKey(["read"]);
});

async function stored(sessionId: string): Promise<MessageJson[]> {
  const res = await sessionMessagesRoute.GET(req("GET", `/api/session/${sessionId}/messages?limit=200`), params({ id: sessionId }));
  return ((await res.json()) as MessagesPageJson).messages;
}

async function sessions(): Promise<SessionJson[]> {
  return ((await (await sessionsRoute.GET(req("GET", "/api/session?limit=100"), undefined)).json()) as { sessions: SessionJson[] }).sessions;
}

type Sent = { system?: { text: string }[]; messages: { role: string; content: ({ type: string } & Record<string, unknown>)[] }[] } & Record<string, unknown>;
/** What Threadkeeper sent Claude for the last reply (titles and summaries are not streamed). */
const lastSent = () => (h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true).at(-1)?.body ?? {}) as Sent;
const systemText = (s: Sent) => (s.system ?? []).map((b) => b.text).join("");

const WEATHER: OpenAI.ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "get_weather", description: "The weather in a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: true },
  },
];

describe("the OpenAI-compatible endpoint with the openai SDK as its client", () => {
  it("answers chat.completions.create as OpenAI does, in a session the app lists, with each field mapped as Anthropic's layer maps it", async () => {
    const { data, response } = await sdk()
      .chat.completions.create({
        model: MODEL,
        messages: [
          { role: "system", content: "You are terse." },
          { role: "developer", content: "Answer in English." },
          { role: "user", content: "The quokka database moves to PostgreSQL 15." },
        ],
        temperature: 1.5,
        top_p: 0.9,
        stop: ["END", "  "],
        user: "user-42",
        max_completion_tokens: 300,
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: 0.1,
        logprobs: false,
        logit_bias: { "50256": -100 },
        store: false,
        reasoning_effort: "low",
        metadata: { team: "data" },
        n: 1,
      })
      .withResponse();
    expect(data.object).toBe("chat.completion");
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.model).toBe(MODEL);
    expect(data.choices).toHaveLength(1);
    const choice = data.choices[0];
    expect(choice.message).toMatchObject({ role: "assistant", refusal: null });
    expect(choice.message.content).toContain("quokka database");
    expect(choice.finish_reason).toBe("stop");
    const u = data.usage;
    expect(u?.prompt_tokens).toBeGreaterThan(0);
    expect(u?.completion_tokens).toBeGreaterThan(0);
    expect(u?.total_tokens).toBe((u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0));
    expect(u?.prompt_tokens_details?.cached_tokens).toBeGreaterThanOrEqual(0);
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("threadkeeper-history")).toBe("appended");
    expect(response.headers.get("x-request-id")).toBeTruthy();

    const sent = lastSent();
    expect(systemText(sent)).toContain("You are terse.\nAnswer in English.");
    expect(sent).toMatchObject({ temperature: 1, top_p: 0.9, stop_sequences: ["END"], metadata: { user_id: "user-42" }, max_tokens: 300 });
    for (const ignored of ["seed", "presence_penalty", "frequency_penalty", "logprobs", "logit_bias", "store", "reasoning_effort", "n", "user", "stop"]) expect(sent).not.toHaveProperty(ignored);
    // Not OpenAI's metadata either: Claude's holds only the user id.
    expect(sent.metadata).toEqual({ user_id: "user-42" });

    expect((await sessions()).map((s) => s.id)).toContain(session);
    expect((await stored(session)).map((m) => [m.role, m.text])).toEqual([
      ["user", "The quokka database moves to PostgreSQL 15."],
      ["assistant", choice.message.content],
    ]);
  });

  it("streams chat.completion.chunk frames: the role first, text deltas, the finish reason, then usage with no choices", async () => {
    const stream = await sdk().chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "Stream me a reply." }] });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0].id)).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toContain("Stream me a reply.");
    const finished = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finished.map((c) => c.choices[0].finish_reason)).toEqual(["stop"]);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);

    // The SDK's own stream helper assembles the same message.
    const helper = sdk().chat.completions.stream({ model: MODEL, messages: [{ role: "user", content: "Once more, streamed." }] });
    let deltas = "";
    helper.on("content", (d) => (deltas += d));
    const final = await helper.finalChatCompletion();
    expect(final.choices[0].message.content).toBe(deltas);
    expect(final.choices[0].finish_reason).toBe("stop");
  });

  it("returns a function call with JSON arguments; the tool's result continues the turn in the same session", async () => {
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Oslo" }, text: "Let me check the weather." });
    const question: OpenAI.ChatCompletionMessageParam = { role: "user", content: "What is the weather in Oslo?" };
    const first = await sdk().chat.completions.create({ model: MODEL, tools: WEATHER, tool_choice: "required", parallel_tool_calls: false, messages: [question] }).withResponse();
    const message = first.data.choices[0].message;
    expect(first.data.choices[0].finish_reason).toBe("tool_calls");
    expect(message.content).toBe("Let me check the weather.");
    const call = message.tool_calls?.[0];
    if (call?.type !== "function") throw new Error("no function call");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Oslo" });
    const sentTools = lastSent().tools as { name: string; input_schema?: unknown; strict?: unknown }[];
    expect(sentTools.map((t) => t.name)).toEqual(expect.arrayContaining(["recall", "get_weather"]));
    expect(sentTools.find((t) => t.name === "get_weather")).toEqual({ name: "get_weather", description: "The weather in a city.", input_schema: WEATHER[0].type === "function" ? WEATHER[0].function.parameters : null });
    expect(lastSent().tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });

    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    h.fake.enqueue({ kind: "reply", text: "It is 4 degrees and raining in Oslo." });
    const second = await sdk(key, session)
      .chat.completions.create({
        model: MODEL,
        tools: WEATHER,
        messages: [question, { role: "assistant", content: message.content, tool_calls: message.tool_calls }, { role: "tool", tool_call_id: call.id, content: "4°C, rain" }],
      })
      .withResponse();
    expect(second.response.headers.get("threadkeeper-history")).toBe("continued");
    expect(second.data.choices[0].message.content).toBe("It is 4 degrees and raining in Oslo.");
    const results = lastSent().messages.at(-1)?.content;
    expect(results).toEqual([{ type: "tool_result", tool_use_id: call.id, content: "4°C, rain" }]);
    expect((await stored(session)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("streams a function call as tool_calls deltas: its id and name first, then the arguments in fragments", async () => {
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Bergen", unit: "celsius" } });
    const stream = await sdk().chat.completions.create({ model: MODEL, stream: true, tools: WEATHER, messages: [{ role: "user", content: "Weather in Bergen?" }] });
    const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const c of stream) {
      deltas.push(...(c.choices[0]?.delta.tool_calls ?? []));
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "get_weather", arguments: "" } });
    expect(deltas[0].id).toMatch(/^toolu_/);
    expect(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined)).toBe(true);
    expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? "").join(""))).toEqual({ city: "Bergen", unit: "celsius" });
    expect(finish).toBe("tool_calls");
  });

  it("response_format json_schema is Claude's structured output; json_object a system instruction", async () => {
    const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false };
    const res = await sdk().chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Invent a person." }],
      response_format: { type: "json_schema", json_schema: { name: "person", schema, strict: true } },
    });
    const person = JSON.parse(res.choices[0].message.content ?? "") as { name: unknown; age: unknown };
    expect(typeof person.name).toBe("string");
    expect(Number.isInteger(person.age)).toBe(true);
    expect(lastSent().output_config).toEqual({ format: { type: "json_schema", schema } });

    await sdk().chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Describe Oslo as JSON." }], response_format: { type: "json_object" } });
    expect(systemText(lastSent())).toContain(JSON_OBJECT_INSTRUCTION);
    expect(lastSent()).not.toHaveProperty("output_config");
  });

  it("an image data URL is a base64 image block, stored as a file of the session; an http URL is refused unless the operator allows it", async () => {
    const png = pngHeader(64, 32).toString("base64");
    const picture = (url: string): OpenAI.ChatCompletionMessageParam[] => [
      { role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url } }] },
    ];
    const { response } = await sdk().chat.completions.create({ model: MODEL, messages: picture(`data:image/png;base64,${png}`) }).withResponse();
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    const files = ((await (await sessionFilesRoute.GET(req("GET", `/api/session/${session}/files`), params({ id: session }))).json()) as { files: FileInfo[] }).files;
    expect(files).toMatchObject([{ kind: "image", media_type: "image/png", width: 64, height: 32 }]);
    expect(lastSent().messages.at(-1)?.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image", source: expect.objectContaining({ type: "base64", media_type: "image/png" }) })]));

    const before = (await sessions()).length;
    const refused = await sdk().chat.completions.create({ model: MODEL, messages: picture("https://example.com/cat.png") }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages.0.content.1.image_url.url");
    expect((refused as Error).message).toMatch(/data: URL/);
    expect((await sessions()).length).toBe(before);

    process.env.THREADKEEPER_OPENAI_IMAGE_URLS = "on";
    try {
      await sdk().chat.completions.create({ model: MODEL, messages: picture("https://example.com/cat.png") });
      expect(lastSent().messages.at(-1)?.content).toContainEqual(expect.objectContaining({ type: "image", source: { type: "url", url: "https://example.com/cat.png" } }));
    } finally {
      delete process.env.THREADKEEPER_OPENAI_IMAGE_URLS;
    }
  });

  it("with the session header, a resent history (a recall round and a function call in it) is recognised from the view the last answer recorded", async () => {
    h.fake.enqueue({ kind: "tool_use", name: "recall", input: { query: "launch" }, text: "Let me look." }, { kind: "reply", text: "Nothing yet." });
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What did we say about the launch?" }];
    const first = await sdk().chat.completions.create({ model: MODEL, messages: history }).withResponse();
    expect(first.data.choices[0].message.content).toBe("Let me look.\n\nNothing yet.");
    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Lisbon" } });
    history.push({ role: "assistant", content: first.data.choices[0].message.content }, { role: "user", content: "And the weather there?" });
    const second = await sdk(key, session).chat.completions.create({ model: MODEL, tools: WEATHER, messages: history }).withResponse();
    expect(second.response.headers.get("threadkeeper-history")).toBe("matched");
    const { content, tool_calls } = second.data.choices[0].message;
    const call = tool_calls?.[0];
    if (call?.type !== "function") throw new Error("no function call");
    history.push({ role: "assistant", content, tool_calls }, { role: "tool", tool_call_id: call.id, content: "Sunny" });
    const third = await sdk(key, session).chat.completions.create({ model: MODEL, tools: WEATHER, messages: history }).withResponse();
    expect(third.response.headers.get("threadkeeper-history")).toBe("continued");
    await idle(h, session);
    const { row, rows } = await withUser(LOCAL_USER_ID, async (tx) => ({ row: await getSession(tx, LOCAL_USER_ID, session), rows: await tailMessages(tx, session, 1) }));
    // The view the last answer recorded is the session as this client holds it: the next resend reads nothing.
    expect(row.client_view_seq).toBe(row.next_seq - 1);
    const view = clientView(rows, new Set(["recall"]));
    expect({ len: row.client_view_len, digest: row.client_view_digest }).toEqual(extendDigest(EMPTY_VIEW, view.map((v) => v.key)));
    // Stored once each: the recall round the client never saw, the function call and its result.
    expect((await stored(session)).map((m) => [m.role, m.content.map((b) => b.type).join()])).toEqual([
      ["user", "text"],
      ["assistant", "text,tool_use"],
      ["user", "tool_result"],
      ["assistant", "text"],
      ["user", "text"],
      ["assistant", "tool_use"],
      ["user", "tool_result"],
      ["assistant", "text"],
    ]);
  });

  it("holds a multi-turn conversation in one session when the client resends the history without Threadkeeper's header", async () => {
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Remember: the launch is in Lisbon." }];
    const first = await sdk().chat.completions.create({ model: MODEL, messages: history }).withResponse();
    const session = first.response.headers.get("threadkeeper-session-id");
    history.push({ role: "assistant", content: first.data.choices[0].message.content }, { role: "user", content: "And the date is March 3rd." });
    const second = await sdk().chat.completions.create({ model: MODEL, messages: history }).withResponse();
    expect(second.response.headers.get("threadkeeper-session-id")).toBe(session);
    expect(second.response.headers.get("threadkeeper-history")).toBe("matched");
    expect(await stored(session ?? "")).toHaveLength(4);
  });

  it("raises the SDK's typed errors in OpenAI's shape", async () => {
    const ask = { model: MODEL, messages: [{ role: "user" as const, content: "hi" }] };
    const fail = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    const forged = await fail(sdk("tk_live_forged").chat.completions.create(ask));
    expect(forged).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(forged?.code).toBe("invalid_api_key");
    expect(await fail(sdk(readOnly).chat.completions.create(ask))).toBeInstanceOf(OpenAI.PermissionDeniedError);

    const many = await fail(sdk().chat.completions.create({ ...ask, n: 2 }));
    expect(many).toBeInstanceOf(OpenAI.BadRequestError);
    expect(many).toMatchObject({ type: "invalid_request_error", param: "n" });
    const model = await fail(sdk().chat.completions.create({ ...ask, model: "gpt-4o" }));
    expect(model).toBeInstanceOf(OpenAI.NotFoundError);
    expect(model).toMatchObject({ code: "model_not_found", param: "model" });
    const body = await fail(sdk().chat.completions.create({ model: MODEL, messages: [{ role: "robot", content: "hi" }] } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming));
    expect(body).toBeInstanceOf(OpenAI.BadRequestError);
    expect(body?.param).toBe("messages.0.role");
    const args = await fail(
      sdk().chat.completions.create({
        model: MODEL,
        messages: [ask.messages[0], { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{oops" } }] }, { role: "tool", tool_call_id: "call_1", content: "x" }],
      }),
    );
    expect(args?.param).toBe("messages.1.tool_calls.0.function.arguments");
    const session = await fail(sdk(key, "00000000-0000-4000-8000-000000000000").chat.completions.create(ask));
    expect(session).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await fail(sdk().embeddings.create({ model: "text-embedding-3-small", input: "hi" }))).toBeInstanceOf(OpenAI.NotFoundError);

    // Claude rate-limits Threadkeeper past its own retries: the caller sees OpenAI's 429.
    h.fake.enqueue({ kind: "error", status: 429, retryAfter: 0 }, { kind: "error", status: 429, retryAfter: 0 }, { kind: "error", status: 429, retryAfter: 0 });
    const limited = await fail(sdk().chat.completions.create(ask));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" });
    expect(limited?.headers?.get("retry-after")).toBeTruthy();
    // Once the stream has started, a failure is an error frame, which the SDK raises.
    h.fake.enqueue({ kind: "error", status: 529 }, { kind: "error", status: 529 }, { kind: "error", status: 529 });
    const { data: stream, response } = await sdk().chat.completions.create({ ...ask, stream: true }).withResponse();
    const broken = await fail((async () => {
      for await (const c of stream) void c;
    })());
    expect(broken).toBeInstanceOf(OpenAI.APIError);
    expect(broken).toMatchObject({ type: "server_error", code: "overloaded" });
    await idle(h, response.headers.get("threadkeeper-session-id") ?? "");
  });

  it("lists and retrieves the registry's models; an unknown one is a 404", async () => {
    const ids: string[] = [];
    for await (const m of sdk().models.list()) {
      expect(m).toMatchObject({ object: "model", owned_by: "anthropic" });
      ids.push(m.id);
    }
    expect(ids).toEqual(expect.arrayContaining(["claude-opus-4-8", "claude-sonnet-4-6", MODEL]));
    const one = await sdk().models.retrieve("claude-sonnet-4-6");
    expect(one.created).toBeGreaterThan(1_600_000_000);
    await expect(sdk().models.retrieve("gpt-4o")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("the AI SDK's OpenAI-compatible provider", () => {
  const provider = () => createOpenAICompatible({ name: "threadkeeper", baseURL: BASE, apiKey: key, fetch: dispatch, includeUsage: true });

  it("generateText runs a tool loop; streamText reports usage", async () => {
    h.fake.enqueue({ forModel: MODEL, kind: "tool_use", name: "ferry_status", input: { ferry: "obsidian" } }, { forModel: MODEL, kind: "reply", text: "The obsidian ferry is on time." });
    const result = await generateText({
      model: provider()(MODEL),
      tools: { ferry_status: tool({ description: "Is a ferry on time?", inputSchema: z.object({ ferry: z.string() }), execute: async () => ({ on_time: true }) }) },
      stopWhen: stepCountIs(3),
      prompt: "Is the obsidian ferry on time?",
    });
    expect(result.text).toBe("The obsidian ferry is on time.");
    expect(result.steps).toHaveLength(2);
    expect(lastSent().messages.at(-1)?.content[0]).toMatchObject({ type: "tool_result", content: JSON.stringify({ on_time: true }) });

    const streamed = streamText({ model: provider()(MODEL), prompt: "Stream this, please." });
    expect(await streamed.text).toContain("Stream this, please.");
    const usage = await streamed.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });
});
