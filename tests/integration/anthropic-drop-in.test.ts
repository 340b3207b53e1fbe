// /api/anthropic as an app on the Anthropic SDK uses it: the real @anthropic-ai/sdk as the
// client (its fetch handed to our route handlers), real PGlite, and the fake Anthropic server as
// Threadkeeper's own upstream. The app changes only its base URL and key.
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as unknownRoute from "@/app/api/anthropic/[...path]/route";
import * as countRoute from "@/app/api/anthropic/v1/messages/count_tokens/route";
import * as modelsRoute from "@/app/api/anthropic/v1/models/route";
import * as modelRoute from "@/app/api/anthropic/v1/models/[model_id]/route";
import * as sessionMessagesRoute from "@/app/api/session/[id]/messages/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import type { CreatedApiKeyJson, MessageJson, MessagesPageJson } from "@/lib/contract";
import { clientView, EMPTY_VIEW, extendDigest } from "@/lib/context/client-history";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { tailMessages } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { countRequestTokens } from "../fake-anthropic/server";
import { params, req, useHarness } from "./harness";

const h = useHarness();

const BASE = "http://127.0.0.1:3000/api/anthropic";
const MODEL = "claude-haiku-4-5";

/** Where the SDK's requests go: the route handler of their path, in this process. */
function dispatch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname;
  if (path.endsWith("/v1/messages/count_tokens")) return countRoute.POST(request, undefined);
  if (path.endsWith("/v1/messages")) return messagesRoute.POST(request, undefined);
  const model = /\/v1\/models\/([^/]+)$/.exec(path);
  if (model) return modelRoute.GET(request, params({ model_id: decodeURIComponent(model[1]) }));
  if (path.endsWith("/v1/models")) return modelsRoute.GET(request, undefined);
  // Anything else under the drop-in goes to its catch-all, as Next.js routes it.
  const rest = path.split("/api/anthropic/")[1];
  const method = request.method as "GET" | "POST" | "DELETE";
  if (rest) return unknownRoute[method](request, { params: Promise.resolve({ path: rest.split("/") }) });
  return Promise.resolve(new Response("no route", { status: 599 }));
}

function sdk(apiKey: string, opts: { maxRetries?: number; session?: string } = {}): Anthropic {
  return new Anthropic({
    apiKey,
    baseURL: BASE,
    fetch: dispatch,
    maxRetries: opts.maxRetries ?? 0,
    ...(opts.session ? { defaultHeaders: { "threadkeeper-session-id": opts.session } } : {}),
  });
}

async function createKey(scopes: string[]): Promise<string> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: `drop-in ${scopes.join("+")}`, scopes }), undefined);
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as CreatedApiKeyJson).secret;
}

async function stored(sessionId: string): Promise<MessageJson[]> {
  const res = await sessionMessagesRoute.GET(req("GET", `/api/session/${sessionId}/messages?limit=200`), params({ id: sessionId }));
  return ((await res.json()) as MessagesPageJson).messages;
}

/** What Threadkeeper sent Claude for replies (titles and summaries are not streamed). */
const chatRequests = () => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true);

/**
 * The digest the session keeps of what its client saw is the digest of its messages as that
 * client saw them: the next resent history is recognised by it without reading them.
 */
async function expectViewRecorded(sessionId: string): Promise<void> {
  const { session, stored } = await withUser(LOCAL_USER_ID, async (tx) => ({
    session: await getSession(tx, LOCAL_USER_ID, sessionId),
    stored: await tailMessages(tx, sessionId, 1),
  }));
  const view = clientView(stored, new Set(["recall"]));
  expect(session.client_view_seq).toBe(session.next_seq - 1);
  expect({ len: session.client_view_len, digest: session.client_view_digest }).toEqual(extendDigest(EMPTY_VIEW, view.map((v) => v.key)));
}

const text = (m: Anthropic.Message) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");

let key: string;

beforeAll(async () => {
  key = await createKey(["read", "write"]);
});

describe("the drop-in Messages API with the Anthropic SDK as its client", () => {
  it("answers what it does not serve (batches, files) in Anthropic's shape, so the SDK raises NotFoundError", async () => {
    const err = await sdk(key).messages.batches.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect((err as InstanceType<typeof Anthropic.NotFoundError>).message).toContain("does not serve GET /api/anthropic/v1/messages/batches");
    const retrieved = await sdk(key).beta.files.retrieveMetadata("file_123").catch((e: unknown) => e);
    expect(retrieved).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it("answers messages.create like the API, in a new session named by a response header", async () => {
    const client = sdk(key);
    const { data, response } = await client.messages
      .create({ model: MODEL, max_tokens: 512, messages: [{ role: "user", content: "The quokka database moves to PostgreSQL 15." }] })
      .withResponse();
    expect(data.type).toBe("message");
    expect(data.role).toBe("assistant");
    expect(data.model).toBe(MODEL);
    expect(data.id).toMatch(/^msg_/);
    expect(text(data)).toContain("quokka database");
    expect(data.stop_reason).toBe("end_turn");
    // What Claude billed: the fake measured the managed request, system prompt and tools included.
    expect(data.usage.input_tokens + (data.usage.cache_creation_input_tokens ?? 0) + (data.usage.cache_read_input_tokens ?? 0)).toBeGreaterThan(0);
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("threadkeeper-history")).toBe("appended");
    expect(Number(response.headers.get("threadkeeper-context-tokens"))).toBeGreaterThan(0);
    expect(Number(response.headers.get("threadkeeper-context-capacity"))).toBeGreaterThan(0);
    expect(response.headers.get("request-id")).toBeTruthy();
    const messages = await stored(session);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    // Threadkeeper's own recall tool went to Claude beside the caller's (none here).
    const upstream = chatRequests().at(-1);
    expect((upstream?.body?.tools as { name: string }[]).map((t) => t.name)).toContain("recall");
  });

  it("recognises a resent history and stores no turn twice; a lone new message is appended", async () => {
    const first = await sdk(key).messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Remember: the launch is in Lisbon." }] }).withResponse();
    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    const client = sdk(key, { session });
    const history: Anthropic.MessageParam[] = [
      { role: "user", content: "Remember: the launch is in Lisbon." },
      { role: "assistant", content: first.data.content },
      { role: "user", content: "And the date is March 3rd." },
    ];
    const second = await client.messages.create({ model: MODEL, max_tokens: 256, messages: history }).withResponse();
    expect(second.response.headers.get("threadkeeper-history")).toBe("matched");
    expect(second.response.headers.get("threadkeeper-session-id")).toBe(session);
    // The same history as a string reply: whitespace and block boundaries do not matter.
    const third = await client.messages
      .create({
        model: MODEL,
        max_tokens: 256,
        messages: [...history.slice(0, 2), { role: "user", content: [{ type: "text", text: "And the date is March 3rd." }] }, { role: "assistant", content: `  ${text(second.data)}\n` }, { role: "user", content: "Where is it?" }],
      })
      .withResponse();
    expect(third.response.headers.get("threadkeeper-history")).toBe("matched");
    const fourth = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Only this one." }] }).withResponse();
    expect(fourth.response.headers.get("threadkeeper-history")).toBe("appended");
    const messages = await stored(session);
    expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual([
      "Remember: the launch is in Lisbon.",
      "And the date is March 3rd.",
      "Where is it?",
      "Only this one.",
    ]);
    expect(messages).toHaveLength(8);
    await expectViewRecorded(session);
    // What Claude was sent for the lone message: the whole session, supplied by Threadkeeper.
    const sent = chatRequests().at(-1)?.body?.messages as unknown[];
    expect(sent).toHaveLength(7);
  });

  it("streams the API's event sequence; messages.stream() and finalMessage() work unchanged", async () => {
    const client = sdk(key);
    const raw = await client.messages.create({ model: MODEL, max_tokens: 256, stream: true, messages: [{ role: "user", content: "Stream me a reply." }] });
    const types: string[] = [];
    let streamed = "";
    for await (const event of raw) {
      types.push(event.type);
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") streamed += event.delta.text;
    }
    expect(types[0]).toBe("message_start");
    expect(types.filter((t) => t === "content_block_start")).toHaveLength(1);
    expect(types.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
    expect(streamed).toContain("Stream me a reply.");

    const stream = client.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Once more, streamed." }] });
    let deltas = "";
    stream.on("text", (t) => (deltas += t));
    const final = await stream.finalMessage();
    expect(text(final)).toBe(deltas);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    expect(final.usage.input_tokens + (final.usage.cache_read_input_tokens ?? 0) + (final.usage.cache_creation_input_tokens ?? 0)).toBeGreaterThan(0);
  });

  it("message_start carries Claude's own input counts; message_delta the whole turn's", async () => {
    const billed = (u: { input_tokens: number; cache_creation_input_tokens?: number | null; cache_read_input_tokens?: number | null }) =>
      u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    /** The raw answer's events, in order, as { event, data }. */
    const rawEvents = async (content: string) => {
      const res = await dispatch(`${BASE}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: MODEL, max_tokens: 256, stream: true, messages: [{ role: "user", content }] }),
      });
      return [...(await res.text()).matchAll(/^event: (\S+)\ndata: (.*)$/gm)].map(([, event, data]) => ({ event, data: JSON.parse(data) as Record<string, unknown> }));
    };
    type Usage = Anthropic.Usage;
    const events = await rawEvents("Count my input, please.");
    expect(events.map((e) => e.event).slice(0, 3)).toEqual(["message_start", "ping", "content_block_start"]);
    const started = (events[0].data.message as { usage: Usage }).usage;
    // Exactly what the fake counted for the request Threadkeeper sent it.
    expect(billed(started)).toBe(countRequestTokens(chatRequests().at(-1)?.body ?? {}));
    expect(started.input_tokens).toBeGreaterThan(0);
    const final = events.find((e) => e.event === "message_delta")?.data.usage as Usage;
    expect(final.input_tokens).toBe(started.input_tokens);
    expect(final.cache_read_input_tokens).toBe(started.cache_read_input_tokens);

    // Threadkeeper's own recall round: message_start is the first call's, message_delta both calls'.
    h.fake.enqueue({ kind: "tool_use", name: "recall", input: { query: "input" }, text: "Looking." }, { kind: "reply", text: "Found nothing." });
    const round = await rawEvents("What did we count before?");
    const first = (round[0].data.message as { usage: Usage }).usage;
    const calls = chatRequests().slice(-2).map((r) => countRequestTokens(r.body ?? {}));
    expect(billed(first)).toBe(calls[0]);
    expect(billed(round.find((e) => e.event === "message_delta")?.data.usage as Usage)).toBe(calls[0] + calls[1]);
  });

  it("returns a call of the caller's tool to the caller, and its tool_result continues the turn", async () => {
    const tools: Anthropic.Tool[] = [
      { name: "get_weather", description: "The weather in a city.", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    ];
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Oslo" }, text: "Let me check the weather." });
    const client = sdk(key);
    const question: Anthropic.MessageParam = { role: "user", content: "What is the weather in Oslo?" };
    const first = await client.messages.create({ model: MODEL, max_tokens: 256, tools, messages: [question] }).withResponse();
    expect(first.data.stop_reason).toBe("tool_use");
    const call = first.data.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    expect(call?.name).toBe("get_weather");
    expect(call?.input).toEqual({ city: "Oslo" });
    const upstreamTools = (chatRequests().at(-1)?.body?.tools as { name: string }[]).map((t) => t.name);
    expect(upstreamTools).toEqual(expect.arrayContaining(["recall", "get_weather"]));

    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    h.fake.enqueue({ kind: "reply", text: "It is 4 degrees and raining in Oslo." });
    const second = await sdk(key, { session })
      .messages.create({
        model: MODEL,
        max_tokens: 256,
        tools,
        messages: [question, { role: "assistant", content: first.data.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: call?.id ?? "", content: "4°C, rain" }] }],
      })
      .withResponse();
    expect(second.response.headers.get("threadkeeper-history")).toBe("continued");
    expect(text(second.data)).toBe("It is 4 degrees and raining in Oslo.");
    const sent = chatRequests().at(-1)?.body?.messages as { role: string; content: { type: string }[] }[];
    expect(sent.at(-1)?.content.map((b) => b.type)).toEqual(["tool_result"]);
    const messages = await stored(session);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(new Set(messages.map((m) => m.turn_seq)).size).toBe(1);
    await expectViewRecorded(session);
  });

  it("runs Threadkeeper's own recall inside the request, hidden from the caller, and still recognises the history", async () => {
    h.fake.enqueue({ kind: "tool_use", name: "recall", input: { query: "Lisbon launch" }, text: "Let me look that up." }, { kind: "reply", text: "It was Lisbon." });
    const question: Anthropic.MessageParam = { role: "user", content: "Where did we say the launch would be?" };
    const first = await sdk(key).messages.create({ model: MODEL, max_tokens: 256, messages: [question] }).withResponse();
    expect(first.data.content.map((b) => b.type)).toEqual(["text", "text"]);
    expect(text(first.data)).toBe("Let me look that up.It was Lisbon.");
    expect(first.data.stop_reason).toBe("end_turn");
    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    const next = await sdk(key, { session })
      .messages.create({ model: MODEL, max_tokens: 256, messages: [question, { role: "assistant", content: text(first.data) }, { role: "user", content: "Thanks." }] })
      .withResponse();
    expect(next.response.headers.get("threadkeeper-history")).toBe("matched");
    const messages = await stored(session);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    await expectViewRecorded(session);
  });

  it("a long conversation resent whole compacts while the client notices nothing but lower usage", async () => {
    const client = sdk(key);
    const history: Anthropic.MessageParam[] = [];
    let session = "";
    const inputs: number[] = [];
    for (let turn = 0; turn < 14; turn++) {
      history.push({ role: "user", content: `Turn ${turn}: ${"the sync service keeps every record in order ".repeat(450)}` });
      const res = await (session ? sdk(key, { session }) : client).messages.create({ model: MODEL, max_tokens: 1024, messages: history }).withResponse();
      expect(res.response.headers.get("threadkeeper-history")).toBe(session ? "matched" : "appended");
      const u = res.data.usage;
      inputs.push(u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0));
      history.push({ role: "assistant", content: res.data.content });
      if (!session) {
        session = res.response.headers.get("threadkeeper-session-id") ?? "";
        const put = await settingsRoute.PUT(
          req("PUT", `/api/context/settings?session_id=${session}`, { output_reservation: 0.5, safety_buffer: 0.3, compaction_threshold: 0.5 }),
          undefined,
        );
        expect(put.status).toBe(200);
      }
    }
    // Each turn adds the same amount: unmanaged, the last request would be the first plus 13 of those.
    const perTurn = inputs[1] - inputs[0];
    expect(inputs.some((n, i) => i > 0 && n < inputs[i - 1] - perTurn)).toBe(true);
    expect(inputs.at(-1)).toBeLessThan((inputs[0] + 13 * perTurn) * 0.7);
    const messages = await stored(session);
    expect(messages.filter((m) => m.role === "user")).toHaveLength(14);
    expect(messages).toHaveLength(28);
    await expectViewRecorded(session);
  });

  it("an earlier message changed by the client replaces the session's turns from there, kept as earlier versions", async () => {
    const client = sdk(key);
    const a = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Plan the trip to Rome." }] }).withResponse();
    const session = a.response.headers.get("threadkeeper-session-id") ?? "";
    const inSession = sdk(key, { session });
    const b = await inSession.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: "Plan the trip to Rome." }, { role: "assistant", content: a.data.content }, { role: "user", content: "Three days." }],
    });
    const edited = await inSession.messages
      .create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Plan the trip to Paris." }, { role: "assistant", content: "Sure." }, { role: "user", content: "Two days." }] })
      .withResponse();
    expect(b.content.length).toBeGreaterThan(0);
    expect(edited.response.headers.get("threadkeeper-history")).toBe("edited");
    // Claude saw only the client's version of the conversation.
    const sent = chatRequests().at(-1)?.body?.messages as { content: { text: string }[] }[];
    expect(sent.map((m) => m.content.map((c) => c.text).join(""))).toEqual(["Plan the trip to Paris.", "Sure.", "Two days."]);
    const messages = await stored(session);
    expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual(["Plan the trip to Rome.", "Three days.", "Plan the trip to Paris.", "Two days."]);
    expect(messages.find((m) => m.text === "Plan the trip to Paris.")?.supersedes_turn).toBe(1);
    await expectViewRecorded(session);
  });

  it("an SDK retry of a failed request answers the stored message again instead of storing it twice", async () => {
    const first = await sdk(key).messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Hello." }] }).withResponse();
    const session = first.response.headers.get("threadkeeper-session-id") ?? "";
    // Claude fails three times (Threadkeeper's own two retries included), then answers.
    h.fake.enqueue({ kind: "error", status: 529 }, { kind: "error", status: 529 }, { kind: "error", status: 529 });
    const client = sdk(key, { session, maxRetries: 1 });
    const res = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "Are you there?" }] }).withResponse();
    expect(text(res.data)).toContain("Are you there?");
    expect(res.response.headers.get("threadkeeper-history")).toBe("retried");
    const messages = await stored(session);
    expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual(["Hello.", "Are you there?"]);
    expect(messages.filter((m) => m.role === "assistant").map((m) => m.status)).toEqual(["complete", "interrupted", "complete"]);
    // The interrupted reply is no part of the conversation the client holds.
    const whole = await client.messages
      .create({
        model: MODEL,
        max_tokens: 256,
        messages: [
          { role: "user", content: "Hello." },
          { role: "assistant", content: first.data.content },
          { role: "user", content: "Are you there?" },
          { role: "assistant", content: res.data.content },
          { role: "user", content: "Good." },
        ],
      })
      .withResponse();
    expect(whole.response.headers.get("threadkeeper-history")).toBe("matched");
    await expectViewRecorded(session);
  });

  it("count_tokens counts the managed request; the models list is the registry's", async () => {
    const client = sdk(key);
    const alone = await client.messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "How long is this?" }] });
    expect(alone.input_tokens).toBeGreaterThan(0);
    const a = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "alpha beta gamma ".repeat(300) }] }).withResponse();
    const session = a.response.headers.get("threadkeeper-session-id") ?? "";
    const inSession = await sdk(key, { session }).messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "How long is this?" }] });
    expect(inSession.input_tokens).toBeGreaterThan(alone.input_tokens + 300);

    const page = await client.models.list({ limit: 5 });
    expect(page.data).toHaveLength(5);
    const ids: string[] = [];
    for await (const m of client.models.list({ limit: 7 })) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(["claude-opus-4-8", "claude-sonnet-4-6", "claude-mythos-5-2", MODEL]));
    expect(new Set(ids).size).toBe(ids.length);
    const one = await client.models.retrieve("claude-sonnet-4-6");
    expect(one.display_name).toMatch(/Sonnet 4\.6/);
  });

  it("raises the SDK's typed errors: 401, 400, 404, 429 with retry-after", async () => {
    await expect(sdk("tk_live_forged").messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })).rejects.toBeInstanceOf(
      Anthropic.AuthenticationError,
    );
    const client = sdk(key);
    const badModel = client.messages.create({ model: "claude-nonexistent-9", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    await expect(badModel).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(badModel).rejects.toThrow(/claude-opus-4-8/);
    await expect(client.messages.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)).rejects.toThrow(
      /max_tokens/,
    );
    await expect(
      sdk(key, { session: "00000000-0000-4000-8000-000000000000" }).messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    // Claude rate-limits Threadkeeper past its own retries: the caller sees the API's 429.
    h.fake.enqueue({ kind: "error", status: 429, retryAfter: 0 }, { kind: "error", status: 429, retryAfter: 0 }, { kind: "error", status: 429, retryAfter: 0 });
    const limited = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers?.get("retry-after")).toBeTruthy();
    expect((limited as Error).message).toMatch(/rate_limit_error/);
  });
});
