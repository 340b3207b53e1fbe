// API clients that never send threadkeeper-session-id back still hold their conversation in one
// session (lib/turn/api-session.ts): a tool result for a call Threadkeeper just returned, a
// resent history by the digest of what the client last saw, a client's own conversation header,
// else a new session, and an ambiguity is a new session too. Driven by the real Anthropic SDK,
// the Vercel AI SDK and LangChain, none of them told about our header; and which of
// Threadkeeper's own tools such a session offers (the header, the key's choice, the default).
import Anthropic from "@anthropic-ai/sdk";
import { createAnthropic } from "@ai-sdk/anthropic";
import { ChatAnthropic } from "@langchain/anthropic";
import { HumanMessage } from "@langchain/core/messages";
import { tool as langchainTool } from "@langchain/core/tools";
import { generateText, stepCountIs, tool } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as keysRoute from "@/app/api/keys/route";
import * as keyRoute from "@/app/api/keys/[id]/route";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import type { ApiKeyJson, CreatedApiKeyJson, SettingsJson } from "@/lib/contract";
import { history, params, req, useHarness } from "./harness";

const h = useHarness();
const BASE = "http://127.0.0.1:3000/api/anthropic";
const MODEL = "claude-haiku-4-5";

interface Answered {
  session: string;
  found: string;
}

/** Every drop-in answer's session and how it was found, in order. */
const answers: Answered[] = [];

async function dispatch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  if (!new URL(request.url).pathname.endsWith("/v1/messages")) return new Response("no route", { status: 599 });
  const res = await messagesRoute.POST(request, undefined);
  const session = res.headers.get("threadkeeper-session-id");
  if (session) answers.push({ session, found: res.headers.get("threadkeeper-session-found") ?? "" });
  return res;
}

async function createKey(body: object = {}): Promise<CreatedApiKeyJson> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: "found", scopes: ["read", "write"], ...body }), undefined);
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedApiKeyJson;
}

let key = "";
beforeAll(async () => {
  key = (await createKey()).secret;
});

const sdk = (apiKey = key, headers: Record<string, string> = {}) => new Anthropic({ apiKey, baseURL: BASE, fetch: dispatch, maxRetries: 0, defaultHeaders: headers });

/** The answers since `from`. */
const since = (from: number) => answers.slice(from);

/** What Threadkeeper sent Claude for the last reply. */
const lastChatBody = () => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true).at(-1)?.body ?? {};
const sentToolNames = () => ((lastChatBody().tools as { name: string }[] | undefined) ?? []).map((t) => t.name);

describe("a conversation found without threadkeeper-session-id", () => {
  it("a plain chat resent whole stays one session, found by its history", async () => {
    const from = answers.length;
    const client = sdk();
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Name a colour of the teal family." }];
    for (const next of ["And a darker one?", "And the darkest?"]) {
      const reply = await client.messages.create({ model: MODEL, max_tokens: 256, messages });
      messages.push({ role: "assistant", content: reply.content }, { role: "user", content: next });
    }
    await client.messages.create({ model: MODEL, max_tokens: 256, messages });
    const got = since(from);
    expect(got.map((a) => a.found)).toEqual(["new", "history", "history"]);
    expect(new Set(got.map((a) => a.session)).size).toBe(1);
    expect((await history(got[0].session)).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
  });

  it("a tool result for the call just returned continues that session, and so does the next message", async () => {
    const from = answers.length;
    h.fake.enqueue({ forModel: MODEL, kind: "tool_use", name: "weather", input: { city: "Oslo" } }, { forModel: MODEL, kind: "reply", text: "Oslo is mild." });
    const client = sdk();
    const tools: Anthropic.Tool[] = [{ name: "weather", description: "The weather in a city", input_schema: { type: "object", properties: { city: { type: "string" } } } }];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What is the weather in Oslo?" }];
    const call = await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages });
    const use = call.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    if (!use) throw new Error("no tool call");
    messages.push({ role: "assistant", content: call.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "12 °C, cloudy" }] });
    const done = await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages });
    messages.push({ role: "assistant", content: done.content }, { role: "user", content: "Thanks. And tomorrow?" });
    await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages });
    const got = since(from);
    expect(got.map((a) => a.found)).toEqual(["new", "tool_result", "history"]);
    expect(new Set(got.map((a) => a.session)).size).toBe(1);
    const stored = (await history(got[0].session)).messages;
    expect(stored.flatMap((m) => m.content.map((b) => b.type))).toEqual(expect.arrayContaining(["tool_use", "tool_result"]));
  });

  it("a tool result alone, without the history, still finds the session", async () => {
    const from = answers.length;
    h.fake.enqueue({ forModel: MODEL, kind: "tool_use", name: "lookup", input: { q: "x" } }, { forModel: MODEL, kind: "reply", text: "Found it." });
    const client = sdk();
    const tools: Anthropic.Tool[] = [{ name: "lookup", description: "Looks something up", input_schema: { type: "object", properties: { q: { type: "string" } } } }];
    const call = await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages: [{ role: "user", content: "Look up x." }] });
    const use = call.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    if (!use) throw new Error("no tool call");
    await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "x is 42" }] }] });
    const got = since(from);
    expect(got.map((a) => a.found)).toEqual(["new", "tool_result"]);
    expect(got[1].session).toBe(got[0].session);
  });

  it("two sessions the same history could continue: a new session rather than a guess", async () => {
    const from = answers.length;
    const client = sdk();
    const first: Anthropic.MessageParam = { role: "user", content: "An ambiguous opening line." };
    const a = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [first] });
    const b = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [first] });
    expect(a.content).toEqual(b.content);
    await client.messages.create({ model: MODEL, max_tokens: 256, messages: [first, { role: "assistant", content: a.content }, { role: "user", content: "Go on." }] });
    const got = since(from);
    expect(got.map((x) => x.found)).toEqual(["new", "new", "new"]);
    expect(new Set(got.map((x) => x.session)).size).toBe(3);
  });

  it("an image resent with the history is recognised by its bytes, stored once", async () => {
    const from = answers.length;
    const png = PNG_1x1;
    const client = sdk();
    const messages: Anthropic.MessageParam[] = [
      { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }, { type: "text", text: "What is this?" }] },
    ];
    const reply = await client.messages.create({ model: MODEL, max_tokens: 256, messages });
    messages.push({ role: "assistant", content: reply.content }, { role: "user", content: "And its colour?" });
    await client.messages.create({ model: MODEL, max_tokens: 256, messages });
    const got = since(from);
    expect(got.map((x) => x.found)).toEqual(["new", "history"]);
    expect(got[1].session).toBe(got[0].session);
  });

  it("a client's own conversation header maps to one session, even when its history no longer matches", async () => {
    const from = answers.length;
    const client = sdk(key, { "X-Claude-Code-Session-Id": "cc-3f1e9a" });
    const first = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Start of a coding session." }] });
    // The client rewrote its history (as Claude Code does when it compacts): the header still says which conversation.
    await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [
        { role: "user", content: "Summary of the session so far: we started." },
        { role: "assistant", content: first.content },
        { role: "user", content: "Carry on." },
      ],
    });
    // A lone message under the same id is the client's side request (a title, say): a session of its own.
    await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "Write a five-word title for this chat." }] });
    // Another conversation id is another session.
    await sdk(key, { "X-Claude-Code-Session-Id": "cc-other" }).messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Elsewhere." }] });
    const got = since(from);
    expect(got.map((x) => x.found)).toEqual(["new", "conversation", "new", "new"]);
    expect(got[1].session).toBe(got[0].session);
    expect(new Set(got.map((x) => x.session)).size).toBe(3);
    expect((await history(got[0].session)).messages.map((m) => m.text)).not.toContain("Write a five-word title for this chat.");
  });

  it("the Vercel AI SDK: a multi-turn conversation with a tool loop is one session", async () => {
    const from = answers.length;
    const anthropic = createAnthropic({ baseURL: `${BASE}/v1`, apiKey: key, fetch: dispatch });
    h.fake.enqueue({ forModel: MODEL, kind: "tool_use", name: "ferry_status", input: { ferry: "obsidian" } }, { forModel: MODEL, kind: "reply", text: "On time." });
    const tools = { ferry_status: tool({ description: "Is a ferry on time?", inputSchema: z.object({ ferry: z.string() }), execute: async () => ({ on_time: true }) }) };
    const messages: Parameters<typeof generateText>[0]["messages"] & object = [{ role: "user", content: "Is the obsidian ferry on time?" }];
    const one = await generateText({ model: anthropic(MODEL), tools, stopWhen: stepCountIs(4), messages });
    messages.push(...one.responseMessages, { role: "user", content: "And what did I ask first?" });
    await generateText({ model: anthropic(MODEL), tools, stopWhen: stepCountIs(4), messages });
    const got = since(from);
    expect(got.map((x) => x.found)).toEqual(["new", "tool_result", "history"]);
    expect(new Set(got.map((x) => x.session)).size).toBe(1);
  });

  it("LangChain: a multi-turn conversation with a tool loop, streamed, is one session", async () => {
    const from = answers.length;
    h.fake.enqueue({ forModel: MODEL, kind: "tool_use", name: "ferry_status", input: { ferry: "obsidian" } }, { forModel: MODEL, kind: "reply", text: "It is on time." });
    const status = langchainTool(async () => JSON.stringify({ on_time: true }), { name: "ferry_status", description: "Is a ferry on time?", schema: z.object({ ferry: z.string() }) });
    const llm = new ChatAnthropic({ model: MODEL, apiKey: key, anthropicApiUrl: BASE, maxTokens: 1024, streaming: true, clientOptions: { fetch: dispatch, maxRetries: 0 } }).bindTools([status]);
    const question = new HumanMessage("Is the obsidian ferry on time?");
    const first = await llm.invoke([question]);
    const call = first.tool_calls?.[0];
    if (!call?.id) throw new Error("no tool call");
    const result = await status.invoke({ ...call, type: "tool_call", id: call.id });
    const second = await llm.invoke([question, first, result]);
    await llm.invoke([question, first, result, second, new HumanMessage("Thanks!")]);
    const got = since(from);
    expect(got.map((x) => x.found)).toEqual(["new", "tool_result", "history"]);
    expect(new Set(got.map((x) => x.session)).size).toBe(1);
  });
});

describe("Threadkeeper's own tools in an API session", () => {
  const settingsOf = async (session: string) =>
    ((await (await settingsRoute.GET(req("GET", `/api/context/settings?session_id=${session}`), undefined)).json()) as SettingsJson).effective;

  it("a session an API request creates offers recall but not the canvas", async () => {
    await sdk().messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "Default tools?" }] });
    expect(sentToolNames()).toContain("recall");
    expect(sentToolNames().some((n) => n.startsWith("canvas_"))).toBe(false);
    const s = await settingsOf(answers.at(-1)?.session ?? "");
    expect(s).toMatchObject({ recall_tool: true, canvas_tools: false });
  });

  it("threadkeeper-tools chooses per request: none, or recall and the canvas; a bad value is a 400", async () => {
    await sdk(key, { "threadkeeper-tools": "none" }).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "No tools." }] });
    expect(sentToolNames()).toEqual([]);
    const session = answers.at(-1)?.session ?? "";
    await sdk(key, { "threadkeeper-tools": "recall, canvas", "threadkeeper-session-id": session }).messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: "user", content: "Now with the canvas." }],
    });
    expect(sentToolNames()).toContain("recall");
    expect(sentToolNames().some((n) => n.startsWith("canvas_"))).toBe(true);
    expect(await settingsOf(session)).toMatchObject({ recall_tool: true, canvas_tools: true });
    const bad = sdk(key, { "threadkeeper-tools": "recall,teleport" }).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "x" }] });
    await expect(bad).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(bad).rejects.toThrow(/threadkeeper-tools: unknown tool 'teleport'/);
  });

  it("a key's choice applies to its requests, and PATCH /api/keys/{id} changes it", async () => {
    const created = await createKey({ tools: [] });
    expect(created.key.tools).toEqual([]);
    await sdk(created.secret).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "A key without tools." }] });
    expect(sentToolNames()).toEqual([]);
    const patched = await keyRoute.PATCH(req("PATCH", `/api/keys/${created.key.id}`, { tools: ["canvas", "recall"] }), params({ id: created.key.id }));
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as ApiKeyJson).tools).toEqual(["recall", "canvas"]);
    await sdk(created.secret).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "Now with both." }] });
    expect(sentToolNames().some((n) => n.startsWith("canvas_"))).toBe(true);
    // The header still wins over the key.
    await sdk(created.secret, { "threadkeeper-tools": "none" }).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "Header wins." }] });
    expect(sentToolNames()).toEqual([]);
    const bad = await keyRoute.PATCH(req("PATCH", `/api/keys/${created.key.id}`, { tools: ["teleport"] }), params({ id: created.key.id }));
    expect(bad.status).toBe(400);
  });
});

/** A 1×1 PNG. */
const PNG_1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
