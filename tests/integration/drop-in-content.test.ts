// Everything Claude says, kept whole, through the drop-in: thinking with its signature, documents,
// server tools, structured output, mid-conversation system messages and the caller's betas. The
// real @anthropic-ai/sdk is the client; the fake Anthropic server checks what Threadkeeper sends
// Claude (a changed signature is its 400, as the API's is).
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as countRoute from "@/app/api/anthropic/v1/messages/count_tokens/route";
import * as sessionMessagesRoute from "@/app/api/session/[id]/messages/route";
import * as searchRoute from "@/app/api/search/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import * as sessionsRoute from "@/app/api/session/route";
import type { CreatedApiKeyJson, FileInfo, MessageJson, MessagesPageJson } from "@/lib/contract";
import { makePdf } from "../fake-anthropic/server";
import { params, req, useHarness } from "./harness";

const h = useHarness();
const BASE = "http://127.0.0.1:3000/api/anthropic";

function dispatch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname;
  if (path.endsWith("/v1/messages/count_tokens")) return countRoute.POST(request, undefined);
  if (path.endsWith("/v1/messages")) return messagesRoute.POST(request, undefined);
  return Promise.resolve(new Response("no route", { status: 599 }));
}

let key: string;
const sdk = (session?: string, headers: Record<string, string> = {}) =>
  new Anthropic({
    apiKey: key,
    baseURL: BASE,
    fetch: dispatch,
    maxRetries: 0,
    defaultHeaders: { ...(session ? { "threadkeeper-session-id": session } : {}), ...headers },
  });

async function stored(sessionId: string): Promise<MessageJson[]> {
  const res = await sessionMessagesRoute.GET(req("GET", `/api/session/${sessionId}/messages?limit=200`), params({ id: sessionId }));
  return ((await res.json()) as MessagesPageJson).messages;
}

/** What Threadkeeper sent Claude for the last reply. */
const lastSent = () => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true).at(-1);

const WEATHER = { name: "get_weather", description: "Weather for a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } };

beforeAll(async () => {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: "content", scopes: ["read", "write"] }), undefined);
  key = ((await res.json()) as CreatedApiKeyJson).secret;
});

describe("the drop-in keeps every block whole", () => {
  it("thinking: kept byte for byte, streamed live, and sent back unchanged through a tool loop", async () => {
    const model = "claude-sonnet-5-5";
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Oslo" }, thinking: "The user wants Oslo's weather; I should call the tool." });
    const thinking = { type: "adaptive", display: "summarized" } as const;
    const first = sdk().messages.stream({ model, max_tokens: 4096, thinking, tools: [WEATHER], messages: [{ role: "user", content: "Weather in Oslo?" }] });
    const kinds: string[] = [];
    first.on("streamEvent", (e) => {
      if (e.type === "content_block_delta") kinds.push(e.delta.type);
    });
    const reply = await first.finalMessage();
    const session = (await first.withResponse()).response.headers.get("threadkeeper-session-id") ?? "";
    expect(kinds).toContain("thinking_delta");
    expect(kinds).toContain("signature_delta");
    const block = reply.content[0];
    expect(block.type).toBe("thinking");
    if (block.type !== "thinking") throw new Error("no thinking");
    expect(block.thinking).toContain("Oslo");
    expect(block.signature.length).toBeGreaterThan(10);
    expect(reply.stop_reason).toBe("tool_use");
    // Stored as Claude gave it.
    const kept = (await stored(session)).find((m) => m.role === "assistant");
    expect(kept?.content[0]).toMatchObject({ type: "thinking", thinking: block.thinking, signature: block.signature });

    // The tool loop continues: the fake verifies the signature Threadkeeper sends back.
    h.fake.enqueue({ kind: "reply", text: "It is 4 °C in Oslo." });
    const use = reply.content.find((b) => b.type === "tool_use");
    if (!use || use.type !== "tool_use") throw new Error("no tool_use");
    const second = await sdk(session).messages.create({
      model,
      max_tokens: 4096,
      thinking,
      tools: [WEATHER],
      messages: [
        { role: "user", content: "Weather in Oslo?" },
        { role: "assistant", content: reply.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "4 °C, light snow" }] },
      ],
    });
    expect(second.content.some((b) => b.type === "text" && b.text.includes("4 °C"))).toBe(true);
    const sent = lastSent()?.body as { messages: { role: string; content: { type: string; signature?: string }[] }[]; thinking: unknown };
    expect(sent.thinking).toEqual(thinking);
    const resent = sent.messages.find((m) => m.role === "assistant")?.content[0];
    expect(resent).toEqual({ type: "thinking", thinking: block.thinking, signature: block.signature });
  });

  it("history search leaves thinking out unless asked", async () => {
    h.fake.enqueue({ forModel: "claude-sonnet-5-5", kind: "reply", text: "Sure, retry it.", thinking: "The zyxquartz handshake needs one more retry." });
    const { response } = await sdk()
      .messages.create({ model: "claude-sonnet-5-5", max_tokens: 2048, thinking: { type: "adaptive", display: "summarized" }, messages: [{ role: "user", content: "Should I retry?" }] })
      .withResponse();
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    const search = async (query: string) =>
      ((await (await searchRoute.GET(req("GET", `/api/search?${query}`), undefined)).json()) as { hits: { session_id: string; snippet: string; in_thinking?: true }[] }).hits;
    expect(await search("q=zyxquartz")).toEqual([]);
    const asked = await search("q=zyxquartz%20handshake&include_thinking=true");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ session_id: session, in_thinking: true });
    expect(asked[0].snippet).toContain("zyxquartz");
  });

  it("a changed signature comes back as Claude's own 400", async () => {
    // A model without the prefix check: a client's thinking is sent back as it came (on one with the
    // check, thinking Threadkeeper did not see produced cannot pass it, and is left out).
    const model = "claude-opus-5";
    h.fake.enqueue({ kind: "tool_use", name: "get_weather", input: { city: "Rome" } });
    const thinking = { type: "adaptive" } as const;
    const { data: reply, response } = await sdk()
      .messages.create({ model, max_tokens: 4096, thinking, tools: [WEATHER], messages: [{ role: "user", content: "Weather in Rome?" }] })
      .withResponse();
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    const use = reply.content.find((b) => b.type === "tool_use");
    if (!use || use.type !== "tool_use") throw new Error("no tool_use");
    const forged = reply.content.map((b) => (b.type === "thinking" ? { ...b, signature: `${b.signature}x` } : b));
    // A fresh session the history is imported into, so the forged block is what Threadkeeper
    // stores and sends (without a session named, the tool result would continue the first
    // session, whose own unforged thinking Threadkeeper sends).
    const fresh = ((await (await sessionsRoute.POST(req("POST", "/api/session", {}), undefined)).json()) as { session: { id: string } }).session.id;
    const err = await sdk(fresh)
      .messages.create({
        model,
        max_tokens: 4096,
        thinking,
        tools: [WEATHER],
        messages: [
          { role: "user", content: "Weather in Rome?" },
          { role: "assistant", content: forged },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "20 °C" }] },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((err as Error).message)).toMatch(/signature/);
    expect(session).not.toBe("");
  });

  it("a PDF: accepted, read once, counted, its words found by history search, never its base64 in the text", async () => {
    const pdf = makePdf(["Quarterly report of the zanzibar turbine project.", "Page two: the turbine output rose by 12 percent."]).toString("base64");
    const doc = { type: "document" as const, source: { type: "base64" as const, media_type: "application/pdf" as const, data: pdf }, title: "Turbine report", citations: { enabled: true } };
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: [doc, { type: "text", text: "What does the report say about output?" }] }];
    const counted = await sdk().messages.countTokens({ model: "claude-haiku-4-5", messages });
    expect(counted.input_tokens).toBeGreaterThan(2 * 1000);
    h.fake.enqueue({ kind: "cited_reply" });
    const { data, response } = await sdk().messages.create({ model: "claude-haiku-4-5", max_tokens: 1024, messages }).withResponse();
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    expect(data.content.some((b) => b.type === "text" && (b.citations ?? []).some((c) => c.type === "page_location"))).toBe(true);
    const sentDoc = (lastSent()?.body as { messages: { content: Record<string, unknown>[] }[] }).messages[0].content[0];
    expect(sentDoc).toEqual(doc);
    const user = (await stored(session)).find((m) => m.role === "user");
    // Kept as the session's file: the message holds its id, the file its pages' text.
    expect(user?.text).toContain("[document: Turbine report, 2 pages]");
    expect(user?.text).not.toContain(pdf.slice(0, 40));
    expect(user?.content[0]).toMatchObject({ type: "document", title: "Turbine report", source: { type: "threadkeeper_file" }, threadkeeper: { pages: 2 } });
    const files = async () => ((await (await sessionFilesRoute.GET(req("GET", `/api/session/${session}/files`), params({ id: session }))).json()) as { files: FileInfo[] }).files;
    expect(await files()).toMatchObject([{ name: "Turbine report", kind: "pdf", pages: 2, extraction: "done" }]);
    const hits = await (await searchRoute.GET(req("GET", "/api/search?q=zanzibar%20turbine"), undefined)).json();
    expect((hits as { hits: { session_id: string }[] }).hits.some((x) => x.session_id === session)).toBe(true);

    // Resent with the next message: recognised, not stored again.
    h.fake.enqueue({ kind: "reply", text: "Yes." });
    const again = await sdk(session)
      .messages.create({ model: "claude-haiku-4-5", max_tokens: 1024, messages: [...messages, { role: "assistant", content: data.content }, { role: "user", content: "Thanks" }] })
      .withResponse();
    expect(again.response.headers.get("threadkeeper-history")).toBe("matched");
    expect((await stored(session)).filter((m) => m.content.some((b) => b.type === "document"))).toHaveLength(1);
    expect(await files()).toHaveLength(1);
    // Claude got the PDF's bytes back with the resent history.
    expect((lastSent()?.body as { messages: { content: Record<string, unknown>[] }[] }).messages[0].content[0]).toEqual(doc);
  });

  it("bad media and misplaced blocks are 400s naming the field, and nothing is stored", async () => {
    const cases: [Anthropic.MessageParam[], RegExp][] = [
      [[{ role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "not base64!!" } }] }], /messages\.0\.content\.0\.source\.data/],
      [
        [{ role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: Buffer.from("<html>hi</html>").toString("base64") } }] }],
        /messages\.0\.content\.0\.source: the document is not a PDF/,
      ],
      [[{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from("GIF89a....").toString("base64") } }] }], /messages\.0\.content\.0\.source/],
      [[{ role: "user", content: [{ type: "thinking", thinking: "x", signature: "y" } as unknown as Anthropic.TextBlockParam] }], /messages\.0\.content\.0\.type/],
    ];
    for (const [messages, message] of cases) {
      const before = h.fake.requests.length;
      const err = await sdk().messages.create({ model: "claude-haiku-4-5", max_tokens: 64, messages }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as Error).message).toMatch(message);
      expect(h.fake.requests.length).toBe(before);
    }
  });

  it("hostile blocks: deep nesting and NUL bytes are 400s; a megabyte without a space in a text document is taken and counted", async () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const hostile: [string, Anthropic.MessageParam[]][] = [
      ["deep", [{ role: "user", content: [{ type: "future_block", deep } as unknown as Anthropic.TextBlockParam, { type: "text", text: "hi" }] }]],
      ["nul", [{ role: "user", content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "a\u0000b" }, title: "x" }] }]],
    ];
    for (const [name, messages] of hostile) {
      const before = h.fake.requests.length;
      const err = await sdk().messages.create({ model: "claude-haiku-4-5", max_tokens: 64, messages }).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(Anthropic.BadRequestError);
      expect(h.fake.requests.length, name).toBe(before);
    }
    const blob = "x".repeat(1024 * 1024);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: blob } }, { type: "text", text: "How long is it?" }] }];
    // A model with a million-token window: on a 200K one the megabyte is refused as too large for it.
    const model = "claude-sonnet-4-6";
    const counted = await sdk().messages.countTokens({ model, messages });
    expect(counted.input_tokens).toBeGreaterThan(1000);
    h.fake.enqueue({ forModel: model, kind: "reply", text: "Long." });
    const reply = await sdk().messages.create({ model, max_tokens: 64, messages });
    expect(reply.content.some((b) => b.type === "text" && b.text === "Long.")).toBe(true);
  });

  it("passes output_config, unknown fields, betas and system messages through; server tool blocks round-trip", async () => {
    const schema = { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"], additionalProperties: false };
    const body = {
      model: "claude-opus-5-5",
      max_tokens: 2048,
      output_config: { format: { type: "json_schema", schema }, effort: "high" },
      context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
      service_tier: "auto",
      tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 2 }],
      messages: [
        { role: "user", content: "Oslo's temperature as JSON." },
        { role: "system", content: "The user is in Norway." },
      ],
    } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    h.fake.enqueue({ kind: "web_search", query: "Oslo temperature", results: [{ url: "https://weather.example/oslo", title: "Oslo weather" }] });
    const client = sdk(undefined, { "anthropic-beta": "interleaved-thinking-2025-05-14, context-management-2025-06-27" });
    const { data, response } = await client.messages.create(body).withResponse();
    const session = response.headers.get("threadkeeper-session-id") ?? "";
    const sent = lastSent();
    const sentBody = sent?.body as Record<string, unknown> & { messages: { role: string }[]; tools: { name: string; max_uses?: number }[] };
    expect(sentBody.output_config).toEqual({ format: { type: "json_schema", schema }, effort: "high" });
    expect(sentBody.context_management).toEqual((body as unknown as { context_management: unknown }).context_management);
    expect(sentBody.service_tier).toBe("auto");
    expect(sentBody.tools.find((t) => t.name === "web_search")?.max_uses).toBe(2);
    expect(sentBody.messages.map((m) => m.role)).toEqual(["user", "system"]);
    expect(sent?.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14,context-management-2025-06-27");
    const types = data.content.map((b) => b.type);
    expect(types).toEqual(expect.arrayContaining(["server_tool_use", "web_search_tool_result", "text"]));
    const kept = (await stored(session)).filter((m) => m.role === "assistant").flatMap((m) => m.content.map((b) => b.type));
    expect(kept).toEqual(expect.arrayContaining(["server_tool_use", "web_search_tool_result"]));

    // The whole reply resent: recognised, and the server tool blocks go back to Claude as they came.
    h.fake.enqueue({ kind: "reply", text: "Done." });
    const next = await sdk(session)
      .messages.create({ ...body, messages: [...body.messages, { role: "assistant", content: data.content }, { role: "user", content: "And tomorrow?" }] })
      .withResponse();
    expect(next.response.headers.get("threadkeeper-history")).toBe("matched");
    const back = (lastSent()?.body as { messages: { role: string; content: { type: string }[] }[] }).messages.find((m) => m.role === "assistant");
    expect(back?.content.map((b) => b.type)).toEqual(data.content.map((b) => b.type));
  });
});

describe("the drop-in names what it does not take", () => {
  const CALL: Anthropic.MessageParam[] = [
    { role: "user", content: "Look it up." },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }] },
  ];
  const result = (content: unknown): Anthropic.MessageParam[] => [...CALL, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content } as Anthropic.ToolResultBlockParam] }];
  /** The 400 a request gets, as the SDK raises it. */
  const refusal = async (messages: unknown[]) => {
    const err = await sdk()
      .messages.create({ model: "claude-haiku-4-5", max_tokens: 64, tools: [WEATHER], messages: messages as Anthropic.MessageParam[] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    return (err as InstanceType<typeof Anthropic.BadRequestError>).message;
  };
  const user = (...content: unknown[]) => [{ role: "user", content }];

  it("a Files API reference, an unknown source, a block a tool_result cannot hold: the path and the reason, nothing stored", async () => {
    const before = h.fake.requests.length;
    expect(await refusal(user({ type: "document", source: { type: "file", file_id: "file_011CNha8iCJcU1wXNR6q4V8w" } }, { type: "text", text: "Summarise it." }))).toMatch(
      /'messages\.0\.content\.0\.source\.type': source type 'file' names a file of Anthropic's Files API, which Threadkeeper's drop-in does not support; send the document itself as base64, text, url or content/,
    );
    expect(await refusal(user({ type: "text", text: "What is this?" }, { type: "image", source: { type: "file", file_id: "file_1" } }))).toMatch(
      /'messages\.0\.content\.1\.source\.type': .*Files API.*send the image itself as base64 or url/,
    );
    expect(await refusal(user({ type: "container_upload", file_id: "file_1" }, { type: "text", text: "Run it." }))).toMatch(/'messages\.0\.content\.0': block type 'container_upload' names a file of Anthropic's Files API/);
    expect(await refusal(user({ type: "document", source: { type: "s3", uri: "s3://bucket/report.pdf" } }))).toMatch(
      /'messages\.0\.content\.0\.source\.type': source type 's3' is not supported for document blocks by Threadkeeper's drop-in/,
    );
    expect(await refusal(result([{ type: "tool_reference", tool_name: "get_weather" }]))).toMatch(
      /'messages\.2\.content\.0\.content\.0\.type': block type 'tool_reference' is not supported inside a tool_result by Threadkeeper's drop-in; it takes text, image, document or search_result/,
    );
    expect(await refusal(result([{ type: "document", source: { type: "file", file_id: "file_1" } }]))).toMatch(/'messages\.2\.content\.0\.content\.0\.source\.type': .*Files API/);
    expect(await refusal(user({ type: "document", source: { type: "content", content: [{ type: "search_result" }] } }))).toMatch(
      /'messages\.0\.content\.0\.source\.content\.0\.type': block type 'search_result' is not supported inside a document's content source/,
    );
    // Nothing reached Claude.
    expect(h.fake.requests.length).toBe(before);
  });

  it("a wrong field inside a union names that field, not 'Invalid input'", async () => {
    expect(await refusal(result([{ type: "text" }]))).toMatch(/'messages\.2\.content\.0\.content\.0\.text': Invalid input: expected string/);
    expect(await refusal(user({ text: "no type" }))).toMatch(/'messages\.0\.content\.0\.type': every content block needs a 'type'/);
    expect(await refusal([{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "mcp_tool_use", id: "mcptoolu_1", server_name: "docs", input: {} }] }, { role: "user", content: "go" }])).toMatch(
      /'messages\.1\.content\.0\.name': Invalid input: expected string/,
    );
  });

  it("Threadkeeper's own source and notes cannot be sent (a stored file's id was a 500, forged notes were trusted)", async () => {
    const forged = { type: "threadkeeper_file", file_id: "00000000-0000-4000-8000-000000000001", media_type: "application/pdf" };
    expect(await refusal(user({ type: "document", source: forged }, { type: "text", text: "Read it." }))).toMatch(/source type 'threadkeeper_file' is not supported for document blocks/);
    const notes = { pages: 1, tokens: 1, text: "A forged transcript." };
    expect(await refusal(user({ type: "document", source: { type: "url", url: "https://example.com/a.pdf" }, threadkeeper: notes }, { type: "text", text: "Read it." }))).toMatch(
      /'messages\.0\.content\.0\.threadkeeper': 'threadkeeper' is Threadkeeper's own field and cannot be sent/,
    );
  });

  it("a tool_result without content is taken, as the API takes it", async () => {
    h.fake.enqueue({ kind: "reply", text: "The tool said nothing." });
    const reply = await sdk().messages.create({ model: "claude-haiku-4-5", max_tokens: 64, tools: [WEATHER], messages: [...CALL, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1" }] }] });
    expect(reply.content[0]).toMatchObject({ type: "text", text: "The tool said nothing." });
    const sent = (lastSent()?.body as { messages: { content: Record<string, unknown>[] }[] }).messages.at(-1)?.content[0];
    expect(sent).toEqual({ type: "tool_result", tool_use_id: "toolu_1" });
  });
});
