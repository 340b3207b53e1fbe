// What no request may carry, refused at the edge on every route alike: a NUL character
// (PostgreSQL stores none in text or jsonb), a lone surrogate (jsonb refuses it) and nesting
// deeper than the contract's limit (recursive code after JSON.parse would overflow the stack).
// Each was a 500 before; now a 400 naming the field, in Anthropic's shape on the drop-in and as
// a refused request on the MCP server. The real routes on an in-memory PGlite.
import { describe, expect, it } from "vitest";
import * as projectsRoute from "@/app/api/projects/route";
import * as searchRoute from "@/app/api/search/route";
import * as sessionIdRoute from "@/app/api/session/[id]/route";
import * as checkpointSaveRoute from "@/app/api/checkpoint/save/route";
import * as memorySaveRoute from "@/app/api/memory/session/route";
import * as memorySearchRoute from "@/app/api/memory/search/route";
import * as dropInRoute from "@/app/api/anthropic/v1/messages/route";
import * as mcpRoute from "@/app/api/mcp/route";
import { MAX_JSON_DEPTH } from "@/lib/contract/input-guard";
import { history, newSession, params, postMessage, req, useHarness } from "./harness";

const h = useHarness({ online: false });

type ErrorBody = { error: { code: string; message: string; details?: { issues?: { path: string; code: string }[] } } };

async function refused(res: Response, path: string, code: string): Promise<void> {
  expect(res.status).toBe(400);
  const { error } = (await res.json()) as ErrorBody;
  expect(error.code).toBe("invalid_request");
  expect(error.message).toContain(`'${path}'`);
  expect(error.details?.issues?.[0]).toMatchObject({ path, code });
}

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("NUL characters and lone surrogates", () => {
  it("refuses them in a message, its idempotency key, a title, a search, a memory, a project and a label", async () => {
    const s = await newSession();
    await refused(await postMessage(s.id, { content: "hello\u0000world" }), "content", "nul_character");
    await refused(await postMessage(s.id, { content: "broken \uD800 pair" }), "content", "lone_surrogate");
    await refused(await postMessage(s.id, { content: "fine", idempotency_key: "k\u0000" }), "idempotency_key", "nul_character");
    await refused(await sessionIdRoute.PATCH(req("PATCH", `/api/session/${s.id}`, { title: "a\u0000b" }), params({ id: s.id })), "title", "nul_character");
    await refused(await searchRoute.GET(req("GET", "/api/search?q=needle%00haystack"), undefined), "q", "nul_character");
    await refused(await memorySearchRoute.POST(req("POST", "/api/memory/search", { query: "\uDC00" }), undefined), "query", "lone_surrogate");
    await refused(
      await memorySaveRoute.POST(req("POST", "/api/memory/session", { summary: "ok", tags: ["x\u0000"] }), undefined),
      "tags.0",
      "nul_character",
    );
    await refused(await projectsRoute.POST(req("POST", "/api/projects", { name: "p\u0000" }), undefined), "name", "nul_character");
    await refused(
      await checkpointSaveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "l\u0000" }), undefined),
      "label",
      "nul_character",
    );
    // Nothing was stored on the way.
    expect((await history(s.id)).messages).toHaveLength(0);
  });

  it("refuses them in a key of an object, too", async () => {
    const s = await newSession();
    await refused(await postMessage(s.id, { content: "x", "odd\u0000": 1 }), "odd\u0000", "nul_character");
  });

  it("answers a NUL in a path parameter as the malformed id it is: 404", async () => {
    const res = await sessionIdRoute.GET(req("GET", "/api/session/%00"), params({ id: "\u0000" }));
    expect(res.status).toBe(404);
  });

  it("still takes every valid character, emoji included", async () => {
    const s = await newSession();
    const res = await postMessage(s.id, { content: "naïve 👋 \u0001 text" }, { accept: "application/json" });
    expect(res.status).toBe(201);
  });
});

describe("the drop-in Messages API", () => {
  const dropIn = (body: string) =>
    dropInRoute.POST(req("POST", "/api/anthropic/v1/messages", body, { "anthropic-version": "2023-06-01" }), undefined);

  async function anthropicRefusal(res: Response): Promise<string> {
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    return body.error.message;
  }

  it("refuses 100,000-deep nesting in a tool's input_schema or a tool_use input with a 400 in its own shape", async () => {
    const schemaDeep = `{"model":"claude-haiku-4-5","max_tokens":64,"tools":[{"name":"t","input_schema":{"type":"object","properties":${nested(100_000)}}}],"messages":[{"role":"user","content":"hi"}]}`;
    expect(await anthropicRefusal(await dropIn(schemaDeep))).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    const inputDeep = `{"model":"claude-haiku-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{"a":${nested(100_000)}}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}]}`;
    expect(await anthropicRefusal(await dropIn(inputDeep))).toContain("'messages.1.content.0.input.a");
  });

  it("refuses a NUL in a message in its own shape", async () => {
    const body = JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "a\u0000b" }] });
    expect(await anthropicRefusal(await dropIn(body))).toContain("'messages.0.content'");
  });
});

describe("the MCP server", () => {
  it("refuses a NUL in a tool's arguments before any tool runs", async () => {
    const before = await h.db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from session_memories"));
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "save_memory", arguments: { text: "plant\u0000ed" } } };
    const res = await mcpRoute.POST(req("POST", "/api/mcp", call, { accept: "application/json, text/event-stream" }), undefined);
    await refused(res, "params.arguments.text", "nul_character");
    const after = await h.db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from session_memories"));
    expect(after[0].n).toBe(before[0].n);
  });
});
