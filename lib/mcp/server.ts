// Threadkeeper as an MCP server: a person's history, memories and sessions for any MCP client
// (Claude Code, Claude Desktop, agents). One server per request, stateless, acting as the
// caller: every tool runs the same operation the REST API runs, held to the API key's scopes.
import "server-only";
import { McpServer, ResourceTemplate, type ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ShapeOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { ErrorCode, McpError, type CallToolResult, type GetPromptResult, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Caller } from "@/lib/auth";
import type { Scope } from "@/lib/contract";
import { compactSchema, historySearchQuery, recentQuery, saveMemorySchema, saveSchema, searchSchema } from "@/lib/contract/requests";
import { AppError } from "@/lib/errors";
import { requireScope } from "@/lib/keys/scopes";
import { saveCheckpoint, sessionCheckpoints } from "@/lib/operations/checkpoints";
import { compactNow } from "@/lib/operations/compact";
import { compactionHistory } from "@/lib/operations/compaction-log";
import { memories, saveMemory, searchMemories } from "@/lib/operations/memory";
import { getStatus, pickerSessions } from "@/lib/operations/sessions";
import { resumeMessages } from "@/lib/operations/resume";
import { searchHistoryFor } from "@/lib/search/api";
import { RESUME_DEFAULT_TOKENS, RESUME_MAX_TOKENS, RESUME_MIN_TOKENS, resumeText } from "@/lib/context/resume";
import pkg from "@/package.json";

// A prompt's arguments are strings in MCP: the budget is digits, held to its bounds here.
const resumeBudget = z
  .string()
  .regex(/^\d{1,6}$/, "a whole number of tokens")
  .refine((v) => Number(v) >= RESUME_MIN_TOKENS && Number(v) <= RESUME_MAX_TOKENS, `from ${RESUME_MIN_TOKENS} to ${RESUME_MAX_TOKENS}`)
  .optional()
  .describe(`At most this many tokens (${RESUME_MIN_TOKENS}-${RESUME_MAX_TOKENS}, default ${RESUME_DEFAULT_TOKENS}), counted by Threadkeeper's tokenizer`);

// Tool inputs reuse the REST requests' fields (lib/contract/requests.ts), so both surfaces
// accept exactly the same values; only dates differ, ISO strings in JSON Schema for a model.
const H = historySearchQuery.shape;
const M = searchSchema.shape;
const date = () => z.iso.datetime({ offset: true }).describe("ISO 8601, e.g. 2026-11-01T00:00:00Z");

/** A tool's answer: its JSON as text (what every client shows a model) and as structured content. */
function answer(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

/** Our errors are the tool's result, readable by the model; anything else is the SDK's internal error. */
function failure(err: unknown): CallToolResult {
  if (!(err instanceof AppError)) throw err;
  return { isError: true, content: [{ type: "text", text: `${err.code}: ${err.message}` }] };
}

/** Answers one Streamable HTTP request. Stateless: a fresh server per request, so any instance answers any request. */
export async function handleMcp(req: Request, body: unknown, caller: Caller): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await mcpServer(caller).connect(transport);
  return transport.handleRequest(req, { parsedBody: body });
}

function mcpServer(caller: Caller): McpServer {
  const server = new McpServer({ name: "threadkeeper", version: pkg.version });
  const userId = caller.userId;
  // Registers a tool that needs `scope`: a key without it gets an error result, not the data.
  const tool = <S extends z.ZodRawShape>(
    name: string,
    scope: Scope,
    description: string,
    inputSchema: S,
    run: (args: ShapeOutput<S>) => Promise<object>,
  ) => {
    // The SDK types a callback by a conditional over the shape, which TypeScript leaves
    // unresolved for a generic one: this is the callback for exactly `inputSchema`.
    const call = (async (args: ShapeOutput<S>) => {
      try {
        requireScope(caller.key?.scopes ?? null, scope);
        return answer(await run(args));
      } catch (err) {
        return failure(err);
      }
    }) as unknown as ToolCallback<S>;
    server.registerTool(name, { description, inputSchema, annotations: { readOnlyHint: scope === "read" } }, call);
  };

  tool(
    "search_history",
    "read",
    "Search everything the user has said with Claude in Threadkeeper, condensed turns included, and the text of the files sent in those conversations: keyword and meaning, newest versions first. Use it when the user refers to something discussed before. Returns excerpts with their session, speaker (role), time and seq; an excerpt from a file also names the file and page.",
    {
      query: H.q.describe("What to look for, in the user's words"),
      session_id: H.session_id.describe("Only this session (a fork includes what it inherited)"),
      project_id: H.project_id,
      from: date().optional(),
      to: date().optional(),
      limit: H.limit,
      include_thinking: z.boolean().optional().describe("Also search Claude's thinking, which is left out otherwise"),
    },
    async (a) => ({
      hits: await searchHistoryFor(userId, {
        q: a.query,
        session_id: a.session_id,
        project_id: a.project_id,
        from: a.from ? new Date(a.from) : undefined,
        to: a.to ? new Date(a.to) : undefined,
        limit: a.limit,
        include_thinking: a.include_thinking ?? false,
      }),
    }),
  );

  tool(
    "search_memory",
    "read",
    "Search the user's memories: summaries of earlier sessions and atomic facts about the user and their work (kind 'fact'), ranked by meaning, keywords, recency and pinning.",
    { query: M.query, kind: M.kind, project_id: M.project_id, limit: M.limit },
    async (a) => ({ memories: await searchMemories(userId, a.query, { projectId: a.project_id, kind: a.kind }, a.limit) }),
  );

  tool(
    "list_sessions",
    "read",
    "The user's Threadkeeper sessions, most recent first, with their last message and token figures; `query` searches titles and messages.",
    { query: recentQuery.shape.q, limit: recentQuery.shape.limit },
    async (a) => ({ sessions: await pickerSessions(userId, { q: a.query, limit: a.limit }) }),
  );

  tool(
    "get_session_context",
    "read",
    "What a session knows now: its context figures (tokens used of capacity, status), the current summary of its condensed turns, its current facts and its checkpoints.",
    { session_id: saveSchema.shape.session_id },
    async (a) => sessionContext(userId, a.session_id),
  );

  tool(
    "save_memory",
    "write",
    "Remember something for later sessions: a decision, a preference, a fact about the user's work. Later sessions load it when relevant.",
    { text: saveMemorySchema.shape.summary, project_id: saveMemorySchema.shape.project_id, tags: saveMemorySchema.shape.tags },
    async (a) => ({ memory: await saveMemory(userId, { summary: a.text, project_id: a.project_id, tags: a.tags, key_decisions: [], code_references: [] }) }),
  );

  tool(
    "save_checkpoint",
    "write",
    "Save a checkpoint of a session as it is now, to return to or fork from later.",
    saveSchema.shape,
    async (a) => ({ checkpoint: await saveCheckpoint(userId, { session_id: a.session_id, label: a.label }) }),
  );

  tool(
    "compact_session",
    "write",
    "Condense a session's older turns into a verified summary now, to free room in its context window; `instructions` say what the summary must keep.",
    { session_id: compactSchema.shape.session_id, instructions: compactSchema.shape.instructions },
    async (a) => compactNow(userId, { session_id: a.session_id, instructions: a.instructions, force: true }),
  );

  server.registerPrompt(
    "resume_session",
    {
      description:
        "Carry a Threadkeeper session into this conversation: how it began, the summary of its condensed turns, its facts and as many of its latest turns as fit in max_tokens, saying what was left out.",
      argsSchema: { session_id: saveSchema.shape.session_id, max_tokens: resumeBudget },
    },
    async ({ session_id, max_tokens }): Promise<GetPromptResult> => {
      requireScope(caller.key?.scopes ?? null, "read");
      try {
        const text = await resumeSession(userId, session_id, max_tokens ? Number(max_tokens) : RESUME_DEFAULT_TOKENS);
        return { messages: [{ role: "user", content: { type: "text", text } }] };
      } catch (err) {
        // A session that is not the caller's (or none) is a wrong argument, as the protocol says it.
        if (err instanceof AppError && err.status === 404) throw new McpError(ErrorCode.InvalidParams, `No session ${session_id}: it does not exist or is not yours.`);
        throw err;
      }
    },
  );
  // A session's condensed context (summary and current facts) as a document a client can attach.
  const LISTED_SESSIONS = 20;
  server.registerResource(
    "session_context",
    new ResourceTemplate("threadkeeper://session/{session_id}/context", {
      list: async () => {
        requireScope(caller.key?.scopes ?? null, "read");
        const sessions = await pickerSessions(userId, { limit: LISTED_SESSIONS });
        return { resources: sessions.map((s) => ({ uri: contextUri(s.id), name: s.title, mimeType: "text/markdown" })) };
      },
    }),
    { description: "What a Threadkeeper session established: the summary of its condensed turns and its current facts.", mimeType: "text/markdown" },
    async (uri, { session_id }): Promise<ReadResourceResult> => {
      requireScope(caller.key?.scopes ?? null, "read");
      const id = saveSchema.shape.session_id.parse(session_id);
      const context = await sessionContext(userId, id);
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: contextText(context) }] };
    },
  );
  return server;
}

const contextUri = (sessionId: string) => `threadkeeper://session/${sessionId}/context`;

function contextText(context: Awaited<ReturnType<typeof sessionContext>>): string {
  const parts: string[] = [];
  if (context.summary) parts.push(`## Summary of the earlier turns\n${context.summary}`);
  if (context.facts.length) parts.push(`## Facts\n${context.facts.map((f) => `- ${f}`).join("\n")}`);
  return parts.join("\n\n") || "Nothing condensed or learned yet: the session's turns are all still in its window.";
}

async function sessionContext(userId: string, sessionId: string) {
  const [status, history, known, checkpoints] = await Promise.all([
    getStatus(userId, sessionId),
    compactionHistory(userId, sessionId),
    memories.ofSession(userId, sessionId),
    sessionCheckpoints(userId, sessionId),
  ]);
  const summary = history.filter((c) => c.status === "applied" && c.summary).at(-1)?.summary ?? null;
  const facts = known.facts.filter((f) => f.fact?.valid_until === null).map((f) => f.summary);
  return { status, summary, facts, checkpoints: checkpoints.map((c) => ({ id: c.id, name: c.name, created_at: c.created_at })) };
}

async function resumeSession(userId: string, sessionId: string, budget: number): Promise<string> {
  const [context, messages] = await Promise.all([sessionContext(userId, sessionId), resumeMessages(userId, sessionId, budget)]);
  return resumeText({ sessionId, summary: context.summary, facts: context.facts, ...messages, budget }).text;
}
