// /api/mcp as MCP clients use it: the official SDK's Client over its Streamable HTTP transport,
// its fetch handed to our route handler. Real PGlite, the fake Anthropic server behind sends.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import * as keyRoute from "@/app/api/keys/[id]/route";
import { generateKey } from "@/lib/keys/format";
import * as mcpRoute from "@/app/api/mcp/route";
import * as dropInRoute from "@/app/api/anthropic/v1/messages/route";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import type { CreatedApiKeyJson } from "@/lib/contract";
import { newSession, params, req, sendJson, useHarness } from "./harness";

useHarness();

const URL_ = "http://127.0.0.1:3000/api/mcp";

async function createKey(scopes: string[], expires_at?: string): Promise<string> {
  return (await createdKey(scopes, expires_at)).secret;
}

async function createdKey(scopes: string[], expires_at?: string): Promise<CreatedApiKeyJson> {
  const res = await keysRoute.POST(req("POST", "/api/keys", { name: `mcp ${scopes.join("+")}`, scopes, ...(expires_at ? { expires_at } : {}) }), undefined);
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedApiKeyJson;
}

/** An MCP client whose requests reach the route handler in this process. */
async function connect(secret: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
    fetch: (url, init) => mcpRoute.POST(new Request(url, init), undefined),
  });
  const client = new Client({ name: "threadkeeper-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function json(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return JSON.parse((r.content[0] as { text: string }).text) as Record<string, unknown>;
}

let readKey: string;
let writeKey: string;
let sessionId: string;

beforeAll(async () => {
  readKey = await createKey(["read"]);
  writeKey = await createKey(["read", "write"]);
  const s = await newSession({ title: "Quokka migration" });
  sessionId = s.id;
  await sendJson(s.id, "We decided to move the quokka database to PostgreSQL 15 with pgvector next Tuesday.");
});

describe("the MCP server", () => {
  it("lists its tools with schemas and descriptions, and the resume prompt", async () => {
    const client = await connect(readKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["compact_session", "get_session_context", "list_sessions", "save_checkpoint", "save_memory", "search_history", "search_memory"].sort(),
    );
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
    }
    expect(tools.find((t) => t.name === "search_history")?.inputSchema.required).toEqual(["query"]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["resume_session"]);
    await client.close();
  });

  it("answers the read tools from the user's own history, sessions and context", async () => {
    const client = await connect(readKey);
    const hits = json(await client.callTool({ name: "search_history", arguments: { query: "quokka database" } })).hits as { session_id: string; role: string }[];
    expect(hits.some((h) => h.session_id === sessionId && h.role === "user")).toBe(true);
    // Asking to search Claude's thinking too is an argument the MCP client's schema offers and the tool accepts.
    expect((await client.listTools()).tools.find((t) => t.name === "search_history")?.inputSchema.properties).toHaveProperty("include_thinking");
    const withThinking = json(await client.callTool({ name: "search_history", arguments: { query: "quokka database", include_thinking: true } })).hits as { session_id: string }[];
    expect(withThinking.some((h) => h.session_id === sessionId)).toBe(true);
    const sessions = json(await client.callTool({ name: "list_sessions", arguments: { query: "quokka" } })).sessions as { id: string }[];
    expect(sessions.map((s) => s.id)).toContain(sessionId);
    const context = json(await client.callTool({ name: "get_session_context", arguments: { session_id: sessionId } }));
    expect(context).toMatchObject({ summary: null, facts: expect.any(Array), checkpoints: expect.any(Array) });
    expect((context.status as { session_id: string }).session_id).toBe(sessionId);
    const prompt = await client.getPrompt({ name: "resume_session", arguments: { session_id: sessionId } });
    expect((prompt.messages[0].content as { text: string }).text).toContain("quokka database");
    // An unknown session is the protocol's invalid-params error, not an internal one.
    const unknown = await client.getPrompt({ name: "resume_session", arguments: { session_id: "7d9f3c2e-1b4a-4c5d-8e6f-0a1b2c3d4e5f" } }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining("No session") });
    await client.close();
  });

  it("resume_session carries how it began and the latest turns within max_tokens, and says what it left out", async () => {
    // A long conversation, stored as a drop-in client's history.
    const history: { role: "user" | "assistant"; content: string }[] = [];
    for (let t = 1; t <= 60; t++) {
      history.push({ role: "user", content: `Turn ${t}: what about step ${t} of the lighthouse restoration? ${"We need the details. ".repeat(20)}` });
      history.push({ role: "assistant", content: `Step ${t} is done: ${"the lamp room was repainted ".repeat(15)}` });
    }
    history.push({ role: "user", content: "What is left to do on the lighthouse?" });
    const res = await dropInRoute.POST(
      new Request("http://127.0.0.1:3000/api/anthropic/v1/messages", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": writeKey, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 256, messages: history }),
      }),
      undefined,
    );
    expect(res.status).toBe(200);
    const session = res.headers.get("threadkeeper-session-id") ?? "";
    const client = await connect(readKey);
    const listed = (await client.listPrompts()).prompts.find((p) => p.name === "resume_session");
    expect(listed?.arguments?.find((a) => a.name === "max_tokens")?.required).toBeFalsy();
    const resume = async (max_tokens?: string) => {
      const prompt = await client.getPrompt({ name: "resume_session", arguments: { session_id: session, ...(max_tokens ? { max_tokens } : {}) } });
      return (prompt.messages[0].content as { text: string }).text;
    };
    const small = await resume("2000");
    expect(estimateTextTokens(small)).toBeLessThanOrEqual(2_000);
    expect(small).toContain("## How it began\n**user:** Turn 1: what about step 1");
    expect(small).toMatch(/\*\*user:\*\* What is left to do on the lighthouse\?\n\n\*\*assistant:\*\* Echo: What is left to do on the lighthouse\?$/);
    const left = /\[… (\d+) earlier messages not shown; use search_history with session_id ([0-9a-f-]+)/.exec(small);
    expect(Number(left?.[1])).toBeGreaterThan(60);
    expect(left?.[2]).toBe(session);
    // The default budget (8,000) shows more of the latest turns, and fewer are left out.
    const usual = await resume();
    expect(estimateTextTokens(usual)).toBeLessThanOrEqual(8_000);
    expect(Number(/\[… (\d+) earlier/.exec(usual)?.[1])).toBeLessThan(Number(left?.[1]));
    // A budget out of bounds, or not a number, is the protocol's invalid-params error.
    for (const bad of ["12", "999999", "lots"]) {
      await expect(resume(bad)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/max_tokens/) });
    }
    await client.close();
  });

  it("offers each recent session's condensed context as a resource", async () => {
    const client = await connect(readKey);
    const { resources } = await client.listResources();
    const uri = `threadkeeper://session/${sessionId}/context`;
    expect(resources.find((r) => r.uri === uri)?.name).toBe("Quokka migration");
    const read = await client.readResource({ uri });
    expect((read.contents[0] as { text: string }).text).toMatch(/Nothing condensed or learned yet|## Facts/);
    await expect(client.readResource({ uri: "threadkeeper://session/not-a-uuid/context" })).rejects.toThrow();
    await client.close();
  });

  it("holds each tool to the key's scopes: a read-only key gets an error result from a write tool", async () => {
    const reader = await connect(readKey);
    const refused = (await reader.callTool({ name: "save_memory", arguments: { text: "Prefers tabs over spaces." } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/^insufficient_scope/);
    await reader.close();

    const writer = await connect(writeKey);
    const saved = json(await writer.callTool({ name: "save_memory", arguments: { text: "Prefers tabs over spaces.", tags: ["style"] } }));
    expect((saved.memory as { summary: string; tags: string[] }).tags).toEqual(["style"]);
    const found = json(await writer.callTool({ name: "search_memory", arguments: { query: "tabs or spaces" } })).memories as { summary: string }[];
    expect(found.map((m) => m.summary)).toContain("Prefers tabs over spaces.");
    const checkpoint = json(await writer.callTool({ name: "save_checkpoint", arguments: { session_id: sessionId, label: "Before the move" } }));
    expect((checkpoint.checkpoint as { label: string }).label).toBe("Before the move");
    await writer.close();
  });

  it("answers a foreign or unknown session as not found, as a tool error", async () => {
    const client = await connect(readKey);
    const r = (await client.callTool({ name: "get_session_context", arguments: { session_id: "7d9f3c2e-1b4a-4c5d-8e6f-0a1b2c3d4e5f" } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(/^not_found/);
    await client.close();
  });

  it("refuses a bad key before any tool is listed", async () => {
    await expect(connect("tk_live_" + "x".repeat(38))).rejects.toThrow(/401|invalid_api_key/);
  });

  it("says why a key is refused: RFC 6750's challenge with error_description, and the same in the body", async () => {
    const revoked = await createdKey(["read"]);
    expect((await keyRoute.DELETE(req("DELETE", `/api/keys/${revoked.key.id}`), params({ id: revoked.key.id }))).status).toBe(204);
    const expiring = await createKey(["read"], new Date(Date.now() + 1_000).toISOString());
    await new Promise((r) => setTimeout(r, 1_200));
    const cases = [
      { secret: "tk_live_short", why: "This is not a Threadkeeper API key: keys look like tk_live_ followed by 38 letters and digits.", reason: "malformed" },
      { secret: generateKey().secret, why: "No such API key.", reason: "unknown" },
      { secret: revoked.secret, why: "This API key was revoked.", reason: "revoked" },
      { secret: expiring, why: "This API key has expired.", reason: "expired" },
    ];
    for (const { secret, why, reason } of cases) {
      // What an MCP client shows: the SDK's client raises the body, description included.
      await expect(connect(secret)).rejects.toThrow(why);
      const res = await mcpRoute.POST(
        new Request(URL_, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
        undefined,
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token", error_description="${why}"`);
      expect(await res.json()).toEqual({ error: "invalid_token", error_description: why, code: "invalid_api_key", details: { reason } });
    }
  });

  it("a key without the read scope is a 403 insufficient_scope, described the same way", async () => {
    const writer = await createKey(["write"]);
    const res = await mcpRoute.POST(
      new Request(URL_, {
        method: "POST",
        headers: { authorization: `Bearer ${writer}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
      undefined,
    );
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body).toMatchObject({ error: "insufficient_scope", code: "insufficient_scope", error_description: expect.stringContaining("'read' scope") });
    expect(res.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", error_description="${body.error_description}", scope="read"`);
  });
});
