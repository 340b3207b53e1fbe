// Tenancy, table-driven over every API route and method: user B's attempts on user A's
// objects are 404 and change nothing, B's lists and searches never show A's data, and a
// missing, expired, forged or unknown-kid token is 401 everywhere. A route file or method
// missing from the table fails the test, so a new route cannot be forgotten.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { MintOptions } from "../fake-supabase-auth/server";
import { withUser } from "@/lib/db";
import { recordLlmCall } from "@/lib/db/llm-calls";
import { useHarness, type Harness } from "./harness";
import { signUp, useSaas, type TestUser } from "./saas";
import { routeFiles, routeOf } from "../api-routes";

const h = useHarness({ online: false });
const saas = useSaas();

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** A's objects (and one of B's own, to point at A's objects from). */
interface Ids {
  session: string;
  message: string;
  checkpoint: string;
  compaction: string;
  memory: string;
  project: string;
  template: string;
  webhook: string;
  key: string;
  file: string;
  importJob: string;
  bSession: string;
}

/** A word only A's data contains: B's lists and searches must never show it. */
const MARK = "zebracorn";

interface Attempt {
  route: string;
  method: Method;
  /**
   * `not_found`: 404 and nothing of A's changes. `own`: answers B's own data, nothing of A's.
   * `operator`: for whoever runs the service, never for a user: without the metrics token set
   * (as here) 403 `metrics_token_required` for a signed-in user and for an admin key alike, and
   * nothing of A's in the answer (tests/integration/metrics.test.ts covers the token).
   * `local_only`: a local-mode control (the Anthropic key): 403 `key_managed_by_operator` in SaaS mode.
   */
  expect: "not_found" | "own" | "operator" | "local_only";
  params?: (ids: Ids) => Record<string, string | string[]>;
  query?: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  headers?: Record<string, string> | ((ids: Ids) => Record<string, string>);
  /** A multipart body (an upload) instead of JSON. */
  form?: (ids: Ids) => FormData;
}

/** An export file: one ChatGPT conversation that cannot be read, so an import reports it (by its title) and stores nothing. */
const exportForm = (title: string) => () => {
  const form = new FormData();
  form.set("file", new File([JSON.stringify([{ id: `${title}-1`, title, current_node: "x", mapping: "none" }])], "conversations.json", { type: "application/json" }));
  return form;
};
const fileForm = (name: string) => () => {
  const form = new FormData();
  form.set("file", new File([`${name} text`], name, { type: "text/plain" }));
  return form;
};

const sid = (ids: Ids) => ({ id: ids.session });
const MCP = { accept: "application/json, text/event-stream" };
const mcpCall = (name: string, args: object) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

/** The drop-in Messages API: a session named by header, the conversation in the body. */
const inSession = (i: Ids) => ({ "threadkeeper-session-id": i.session });
const dropIn = (content: string) => ({ model: "claude-haiku-4-5", max_tokens: 256, messages: [{ role: "user", content }] });
/** A's drop-in conversation, named by Claude Code's header and resent whole (seedA fills it in). */
const A_CONVERSATION = { "x-claude-code-session-id": "conversation-of-a" };
let aHistory: { role: string; content: unknown }[] = [];
/** A's history, resent by B as if it were B's: it never continues A's session. */
const replayOfA = () => ({ ...dropIn("And then?"), messages: [...aHistory, { role: "user", content: "And then?" }] });
/** The OpenAI-compatible endpoint: the same, in Chat Completions' terms. */
const openai = (content: string) => ({ model: "claude-haiku-4-5", messages: [{ role: "user", content }] });

const ATTEMPTS: Attempt[] = [
  { route: "/api/session", method: "GET", expect: "own" },
  { route: "/api/session", method: "POST", expect: "own", body: () => ({ title: "B's own" }) },
  { route: "/api/session/[id]", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]", method: "PATCH", expect: "not_found", params: sid, body: () => ({ title: "taken over" }) },
  { route: "/api/session/[id]", method: "PATCH", expect: "not_found", params: (i) => ({ id: i.bSession }), body: (i) => ({ project_id: i.project }) },
  { route: "/api/session/[id]", method: "PATCH", expect: "not_found", params: sid, body: () => ({ pinned: true }) },
  { route: "/api/session/[id]", method: "PATCH", expect: "not_found", params: sid, body: () => ({ archived: false }) },
  { route: "/api/session/[id]", method: "DELETE", expect: "not_found", params: sid },
  { route: "/api/session/[id]/archive", method: "POST", expect: "not_found", params: sid },
  { route: "/api/session/[id]/memories/[memory_id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.session, memory_id: i.memory }) },
  { route: "/api/session/[id]/memories/[memory_id]", method: "POST", expect: "not_found", params: (i) => ({ id: i.session, memory_id: i.memory }) },
  { route: "/api/session/[id]/memories/[memory_id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.bSession, memory_id: i.memory }) },
  { route: "/api/session/[id]/messages", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: sid, body: () => ({ content: "hijack" }) },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: sid, body: () => ({ retry: true }) },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: sid, body: () => ({ regenerate: true }) },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: sid, body: (i) => ({ content: "edit", edit_of: i.message }) },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: (i) => ({ id: i.bSession }), body: (i) => ({ content: "edit", edit_of: i.message }) },
  { route: "/api/session/[id]/messages", method: "POST", expect: "not_found", params: (i) => ({ id: i.bSession }), body: (i) => ({ regenerate: true, reply_id: i.message }) },
  { route: "/api/session/[id]/stop", method: "POST", expect: "not_found", params: sid },
  { route: "/api/session/[id]/export", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/export", method: "GET", expect: "not_found", params: sid, query: () => "?format=md" },
  { route: "/api/session/[id]/events", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/files", method: "POST", expect: "not_found", params: sid, form: fileForm("planted.txt") },
  { route: "/api/import", method: "POST", expect: "own", form: exportForm("B's export") },
  { route: "/api/import", method: "GET", expect: "own" },
  // A ZIP: its entries' names (session titles) are plain text in it.
  { route: "/api/export", method: "GET", expect: "own" },
  { route: "/api/import/[id]", method: "GET", expect: "not_found", params: (i) => ({ id: i.importJob }) },
  { route: "/api/import/[id]/cancel", method: "POST", expect: "not_found", params: (i) => ({ id: i.importJob }), body: () => ({}) },
  { route: "/api/import/[id]/archive", method: "POST", expect: "not_found", params: (i) => ({ id: i.importJob }), body: () => ({}) },
  { route: "/api/session/[id]/files", method: "GET", expect: "not_found", params: sid },
  { route: "/api/files/[id]", method: "GET", expect: "not_found", params: (i) => ({ id: i.file }) },
  { route: "/api/files/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.file }) },
  { route: "/api/files", method: "GET", expect: "own" },
  { route: "/api/session/[id]/draft", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/draft", method: "PUT", expect: "not_found", params: sid, body: () => ({ text: "planted draft" }) },
  { route: "/api/session/[id]/draft", method: "PUT", expect: "not_found", params: sid, body: () => ({ text: "" }) },
  // A's file named in B's own draft is dropped from it, not kept.
  { route: "/api/session/[id]/draft", method: "PUT", expect: "own", params: (i) => ({ id: i.bSession }), body: (i) => ({ text: "x", attachments: [{ id: i.file, by_reference: false }] }) },
  { route: "/api/session/[id]/system-prompt", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/system-prompt", method: "PUT", expect: "not_found", params: sid, body: () => ({ system_prompt: "Obey B." }) },
  { route: "/api/account/instructions", method: "GET", expect: "own" },
  { route: "/api/account/instructions", method: "PUT", expect: "own", body: () => ({ instructions: "B likes short answers." }) },
  { route: "/api/account/anthropic-key", method: "GET", expect: "own" },
  { route: "/api/account/anthropic-key", method: "PUT", expect: "local_only", body: () => ({ key: "sk-ant-api03-planted-key-0000000000" }) },
  { route: "/api/account/anthropic-key", method: "DELETE", expect: "local_only" },
  { route: "/api/session/[id]/canvas", method: "GET", expect: "not_found", params: sid },
  { route: "/api/session/[id]/canvas", method: "GET", expect: "not_found", params: (i) => ({ id: i.bSession }), query: (i) => `?checkpoint_id=${i.checkpoint}` },
  { route: "/api/session/[id]/canvas", method: "DELETE", expect: "not_found", params: sid },
  { route: "/api/session/[id]/canvas/[element_id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.session, element_id: "demo-weather" }) },
  { route: "/api/session/[id]/canvas/[element_id]/choice", method: "POST", expect: "not_found", params: (i) => ({ id: i.session, element_id: "demo-confirm" }), body: () => ({ choice: "Book it" }) },
  { route: "/api/session/[id]/resume", method: "POST", expect: "not_found", params: sid },
  { route: "/api/session/recent", method: "GET", expect: "own", query: () => `?q=${MARK}` },
  { route: "/api/audit", method: "GET", expect: "own" },
  { route: "/api/webhooks", method: "GET", expect: "own" },
  { route: "/api/webhooks", method: "POST", expect: "own", body: () => ({ url: "https://hooks.example.org/b", events: ["memory.saved"] }) },
  { route: "/api/webhooks/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.webhook }) },
  { route: "/api/webhooks/[id]/deliveries", method: "GET", expect: "not_found", params: (i) => ({ id: i.webhook }) },
  { route: "/api/audit", method: "GET", expect: "own", query: (i) => `?target_id=${i.session}` },
  { route: "/api/session/recent", method: "GET", expect: "own", query: (i) => `?project_id=${i.project}` },
  { route: "/api/session/recover", method: "POST", expect: "own", body: () => ({}) },
  { route: "/api/session/recover", method: "POST", expect: "not_found", body: (i) => ({ dismiss_session_id: i.session }) },
  { route: "/api/checkpoint/save", method: "POST", expect: "not_found", body: (i) => ({ session_id: i.session, label: "mine now" }) },
  { route: "/api/checkpoint/session/[session_id]", method: "GET", expect: "not_found", params: (i) => ({ session_id: i.session }) },
  { route: "/api/checkpoint/[id]", method: "GET", expect: "not_found", params: (i) => ({ id: i.checkpoint }) },
  { route: "/api/checkpoint/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.checkpoint }) },
  { route: "/api/checkpoint/[id]/restore", method: "POST", expect: "not_found", params: (i) => ({ id: i.checkpoint }) },
  { route: "/api/checkpoint/recent", method: "GET", expect: "own" },
  { route: "/api/context/status", method: "GET", expect: "not_found", query: (i) => `?session_id=${i.session}` },
  { route: "/api/context/settings", method: "GET", expect: "own" },
  { route: "/api/context/settings", method: "GET", expect: "not_found", query: (i) => `?session_id=${i.session}` },
  { route: "/api/context/settings", method: "PUT", expect: "not_found", query: (i) => `?session_id=${i.session}`, body: () => ({ compaction_threshold: 0.6 }) },
  { route: "/api/context/settings", method: "PUT", expect: "own", body: () => ({ compaction_threshold: 0.7 }) },
  { route: "/api/context/compact", method: "POST", expect: "not_found", body: (i) => ({ session_id: i.session, force: true }) },
  { route: "/api/context/compact/[compaction_id]/undo", method: "POST", expect: "not_found", params: (i) => ({ compaction_id: i.compaction }) },
  { route: "/api/context/history/[session_id]", method: "GET", expect: "not_found", params: (i) => ({ session_id: i.session }) },
  { route: "/api/context/protect/[message_id]", method: "POST", expect: "not_found", params: (i) => ({ message_id: i.message }) },
  { route: "/api/context/protect/[message_id]", method: "DELETE", expect: "not_found", params: (i) => ({ message_id: i.message }) },
  {
    route: "/api/context/protect/[message_id]",
    method: "POST",
    expect: "not_found",
    params: (i) => ({ message_id: i.message }),
    query: (i) => `?session_id=${i.bSession}`,
  },
  { route: "/api/context/templates", method: "GET", expect: "own" },
  { route: "/api/context/templates", method: "POST", expect: "own", body: () => ({ name: "B's", body: "Summarize what B cares about, briefly." }) },
  { route: "/api/context/templates/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.template }) },
  { route: "/api/memory/[memory_id]", method: "GET", expect: "not_found", params: (i) => ({ memory_id: i.memory }) },
  { route: "/api/memory/[memory_id]", method: "PATCH", expect: "not_found", params: (i) => ({ memory_id: i.memory }), body: () => ({ pinned: true }) },
  { route: "/api/memory/[memory_id]", method: "DELETE", expect: "not_found", params: (i) => ({ memory_id: i.memory }) },
  { route: "/api/memory/project/[project_id]", method: "GET", expect: "not_found", params: (i) => ({ project_id: i.project }) },
  { route: "/api/memory/search", method: "POST", expect: "own", body: () => ({ query: `${MARK} plans` }) },
  { route: "/api/search", method: "GET", expect: "own", query: () => `?q=${MARK}` },
  // A's file's words as full-text search reads them ("zebracorn.txt" is one word): file hits are the user's own too.
  { route: "/api/search", method: "GET", expect: "own", query: () => `?q=${MARK}.txt%20text` },
  { route: "/api/search", method: "GET", expect: "not_found", query: (i) => `?q=${MARK}&session_id=${i.session}` },
  { route: "/api/search", method: "GET", expect: "not_found", query: (i) => `?q=${MARK}&project_id=${i.project}` },
  { route: "/api/memory/search", method: "POST", expect: "own", body: (i) => ({ query: MARK, project_id: i.project }) },
  { route: "/api/memory/search", method: "POST", expect: "own", body: () => ({ query: `${MARK} launch Lisbon`, kind: "fact" }) },
  { route: "/api/memory/session", method: "POST", expect: "not_found", body: (i) => ({ summary: "planted", session_id: i.session }) },
  { route: "/api/memory/session", method: "POST", expect: "not_found", body: (i) => ({ summary: "planted", project_id: i.project }) },
  { route: "/api/memory/session/[session_id]", method: "GET", expect: "not_found", params: (i) => ({ session_id: i.session }) },
  { route: "/api/projects", method: "GET", expect: "own" },
  { route: "/api/projects", method: "POST", expect: "own", body: () => ({ name: "B's project" }) },
  { route: "/api/projects/[id]", method: "PATCH", expect: "not_found", params: (i) => ({ id: i.project }), body: () => ({ name: "renamed" }) },
  { route: "/api/projects/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.project }) },
  { route: "/api/usage", method: "GET", expect: "own" },
  { route: "/api/usage", method: "GET", expect: "own", query: () => "?group_by=session" },
  { route: "/api/usage", method: "GET", expect: "own", query: () => "?format=csv&group_by=model" },
  { route: "/api/usage", method: "GET", expect: "not_found", query: (i) => `?session_id=${i.session}&group_by=turn` },
  { route: "/api/usage", method: "GET", expect: "not_found", query: (i) => `?group_by=session&session_id=${i.session}` },
  { route: "/api/usage/summary", method: "GET", expect: "own" },
  // The document describes the API and holds no user data.
  { route: "/api/openapi.json", method: "GET", expect: "own" },
  // The health check is public: the latest migration's name and the version, nobody's data.
  { route: "/api/health", method: "GET", expect: "own" },
  // The server's storage level: the server's, nobody's data (and no figures in SaaS mode).
  { route: "/api/storage", method: "GET", expect: "own" },
  { route: "/api/keys", method: "GET", expect: "own" },
  { route: "/api/keys", method: "POST", expect: "own", body: () => ({ name: "B's key", scopes: ["read"] }) },
  { route: "/api/keys/[id]", method: "DELETE", expect: "not_found", params: (i) => ({ id: i.key }) },
  { route: "/api/keys/[id]", method: "PATCH", expect: "not_found", params: (i) => ({ id: i.key }), body: () => ({ tools: ["canvas"] }) },
  // MCP answers in JSON-RPC: a tool asked about A's objects returns a not_found tool error (status 200).
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: () => mcpCall("search_history", { query: `${MARK} launch` }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: () => mcpCall("search_history", { query: `${MARK}.txt text` }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: () => mcpCall("search_memory", { query: `${MARK} launch Lisbon` }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: () => mcpCall("list_sessions", { query: MARK }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: (i) => mcpCall("get_session_context", { session_id: i.session }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: (i) => mcpCall("save_checkpoint", { session_id: i.session, label: "taken" }) },
  { route: "/api/mcp", method: "POST", expect: "own", headers: MCP, body: (i) => mcpCall("compact_session", { session_id: i.session }) },
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "not_found", headers: inSession, body: () => dropIn("hijack") },
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "not_found", headers: inSession, body: () => ({ ...dropIn("hijack"), stream: true }) },
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "own", body: () => dropIn("What do we know about the launch in Lisbon on March 3rd?") },
  // Neither A's conversation header nor A's exact history reaches A's session.
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "own", headers: A_CONVERSATION, body: () => dropIn("Which session is this?") },
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "own", body: replayOfA },
  { route: "/api/anthropic/v1/messages", method: "POST", expect: "own", headers: A_CONVERSATION, body: replayOfA },
  { route: "/api/anthropic/v1/messages/count_tokens", method: "POST", expect: "not_found", headers: inSession, body: () => dropIn("count") },
  { route: "/api/anthropic/v1/messages/count_tokens", method: "POST", expect: "own", body: () => dropIn("count") },
  { route: "/api/anthropic/v1/models", method: "GET", expect: "own" },
  { route: "/api/anthropic/v1/models/[model_id]", method: "GET", expect: "own", params: () => ({ model_id: "claude-haiku-4-5" }) },
  { route: "/api/openai/v1/chat/completions", method: "POST", expect: "not_found", headers: inSession, body: () => openai("hijack") },
  { route: "/api/openai/v1/chat/completions", method: "POST", expect: "not_found", headers: inSession, body: () => ({ ...openai("hijack"), stream: true }) },
  { route: "/api/openai/v1/chat/completions", method: "POST", expect: "own", body: () => openai("What do we know about the launch in Lisbon on March 3rd?") },
  { route: "/api/openai/v1/chat/completions", method: "POST", expect: "own", headers: A_CONVERSATION, body: () => openai("Which session is this?") },
  { route: "/api/openai/v1/models", method: "GET", expect: "own" },
  { route: "/api/openai/v1/models/[model_id]", method: "GET", expect: "own", params: () => ({ model_id: "claude-haiku-4-5" }) },
  // Counts across users, and no user's data: no ids, no text.
  { route: "/api/metrics", method: "GET", expect: "operator" },
  ...METHODS.map((method): Attempt => ({ route: "/api/[...path]", method, expect: "not_found", params: () => ({ path: ["nope", "x"] }) })),
  ...METHODS.map((method): Attempt => ({ route: "/api/anthropic/[...path]", method, expect: "not_found", params: () => ({ path: ["v1", "messages", "batches"] }) })),
  ...METHODS.map((method): Attempt => ({ route: "/api/openai/[...path]", method, expect: "not_found", params: () => ({ path: ["v1", "embeddings"] }) })),
];

// --- the route files themselves ---


const routes = new Map<string, Partial<Record<Method, Handler>>>();

beforeAll(async () => {
  for (const file of await routeFiles()) {
    const mod = (await import(file)) as Partial<Record<Method, Handler>>;
    routes.set(routeOf(file), mod);
  }
});

/** A public route (the health check) reads no credentials: it answers alike with any or none. */
function isPublic(a: Attempt): boolean {
  return (routes.get(a.route)?.[a.method] as { endpoint?: { public?: true } } | undefined)?.endpoint?.public === true;
}

function call(a: Attempt, ids: Ids, headers: Record<string, string>): Promise<Response> {
  const handler = routes.get(a.route)?.[a.method];
  if (!handler) throw new Error(`no handler for ${a.method} ${a.route}`);
  const params = a.params?.(ids) ?? {};
  const url = a.route.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => [params[name]].flat().join("/")) + (a.query?.(ids) ?? "");
  const body = a.body?.(ids);
  const form = a.form?.(ids);
  const req = new Request(`http://127.0.0.1:3000${url}`, {
    method: a.method,
    headers: { ...(form ? {} : { "content-type": "application/json" }), accept: "application/json", ...(typeof a.headers === "function" ? a.headers(ids) : a.headers), ...headers },
    body: form ?? (body === undefined || a.method === "GET" ? undefined : JSON.stringify(body)),
  });
  return handler(req, { params: Promise.resolve(params) });
}

/** Ids that name nothing: for requests that must fail before reaching any object. */
const NO_IDS = Object.fromEntries(
  ["session", "message", "checkpoint", "compaction", "memory", "project", "template", "webhook", "key", "file", "importJob", "bSession"].map((k, i) => [k, `00000000-0000-4000-8000-0000000000${String(i).padStart(2, "0")}`]),
) as unknown as Ids;

const label = (a: Attempt) => `${a.method} ${a.route}${a.query ? " " + a.query(NO_IDS).split("=")[0] : ""}`;

// --- user A's world ---

async function ok(res: Response, what: string): Promise<Record<string, unknown>> {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
}

async function as(user: TestUser, method: Method, route: string, opts: Omit<Attempt, "route" | "method" | "expect"> = {}, ids = {} as Ids) {
  return ok(await call({ route, method, expect: "own", ...opts }, ids, user.bearer), `${method} ${route}`);
}

async function seedA(a: TestUser): Promise<Omit<Ids, "bSession">> {
  const project = ((await as(a, "POST", "/api/projects", { body: () => ({ name: `${MARK} project` }) })).project as { id: string }).id;
  const tight = { output_reservation: 0.5, safety_buffer: 0.3 };
  const session = ((await as(a, "POST", "/api/session", { body: () => ({ title: `${MARK} plans`, settings: tight }) })).session as { id: string }).id;
  const ids = { session, project } as Ids;
  await as(a, "PATCH", "/api/session/[id]", { params: sid, body: () => ({ project_id: project }) }, ids);
  for (let i = 0; i < 4; i++) {
    // One turn holds a fact, so the compaction stores a fact memory of A's too.
    const fact = i === 1 ? `We decided to hold the ${MARK} launch in Lisbon on March 3rd. ` : "";
    const content = `Turn ${i} about the ${MARK} launch: src/app/page${i}.tsx ${fact}${"alpha beta gamma delta ".repeat(80)}`;
    await as(a, "POST", "/api/session/[id]/messages", { params: sid, body: () => ({ content }) }, ids);
  }
  // The offline responder's canvas demo: A's canvas holds elements (and events) B must not touch.
  await as(a, "POST", "/api/session/[id]/messages", { params: sid, body: () => ({ content: `/demo canvas for the ${MARK} launch` }) }, ids);
  expect(((await as(a, "GET", "/api/session/[id]/canvas", { params: sid }, ids)).elements as unknown[]).length).toBe(4);
  const page = await as(a, "GET", "/api/session/[id]/messages", { params: sid }, ids);
  const message = (page.messages as { id: string }[])[0].id;
  const compacted = await as(a, "POST", "/api/context/compact", { body: () => ({ session_id: session, force: true }) }, ids);
  const compaction = (compacted.compaction as { id: string }).id;
  const checkpoint = ((await as(a, "POST", "/api/checkpoint/save", { body: () => ({ session_id: session, label: MARK }) }, ids)).checkpoint as { id: string }).id;
  const memory = ((await as(a, "POST", "/api/memory/session", { body: () => ({ summary: `${MARK} launch plans`, session_id: session, project_id: project }) }, ids)).memory as { id: string }).id;
  const template = ((await as(a, "POST", "/api/context/templates", { body: () => ({ name: MARK, body: `Summarize the ${MARK} work in detail.` }) }, ids)).template as { id: string }).id;
  const webhook = ((await as(a, "POST", "/api/webhooks", { body: () => ({ url: `https://hooks.example.com/${MARK}`, events: ["checkpoint.created"] }) })).webhook as { id: string }).id;
  // The offline responder bills nothing: A's usage is recorded as a paid reply would be.
  await withUser(a.id, (tx) =>
    recordLlmCall(tx, a.id, {
      sessionId: session,
      turnSeq: 1,
      kind: "chat",
      model: "claude-haiku-4-5",
      usage: { input_tokens: 1200, output_tokens: 80, cache_read_input_tokens: 3000 },
      estimatedInputTokens: 4100,
      windowStartTurn: 1,
      capacityTokens: 76_000,
    }),
  );
  const key = ((await as(a, "POST", "/api/keys", { body: () => ({ name: `${MARK} key`, scopes: ["read", "write"] }) })).key as { id: string }).id;
  const file = ((await as(a, "POST", "/api/session/[id]/files", { params: sid, form: fileForm(`${MARK}.txt`) }, ids)).file as { id: string }).id;
  await as(a, "POST", "/api/session/[id]/messages", { params: sid, body: () => ({ content: "with a file", attachments: [file] }) }, ids);
  await as(a, "PUT", "/api/session/[id]/draft", { params: sid, body: () => ({ text: `A's unsent ${MARK} draft` }) }, ids);
  await as(a, "PUT", "/api/session/[id]/system-prompt", { params: sid, body: () => ({ system_prompt: `A's ${MARK} prompt` }) }, ids);
  await as(a, "PUT", "/api/account/instructions", { body: () => ({ instructions: `A loves ${MARK}s.` }) });
  // A drop-in conversation of A's, found by its header and by its history.
  const first = dropIn("Where shall the garden party be?");
  const answer = await as(a, "POST", "/api/anthropic/v1/messages", { headers: A_CONVERSATION, body: () => first });
  aHistory = [...first.messages, { role: "assistant", content: answer.content }];
  // An import of A's, finished before the snapshot (it reads in the background).
  const importJob = ((await as(a, "POST", "/api/import", { form: exportForm(`${MARK} export`) })).import as { id: string }).id;
  const running = async () => ((await as(a, "GET", "/api/import/[id]", { params: () => ({ id: importJob }) })).import as { status: string }).status === "running";
  for (let i = 0; i < 100 && (await running()); i++) await new Promise((r) => setTimeout(r, 50));
  return { session, message, checkpoint, compaction, memory, project, template, webhook, key, file, importJob };
}

/** Every row of A's in every table with a user_id, as text: any change B causes shows. */
async function snapshotOf(harness: Harness, userId: string): Promise<Record<string, string[]>> {
  return harness.db.transaction(async (tx) => {
    const tables = await tx.query<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'user_id' order by 1`,
    );
    const out: Record<string, string[]> = {};
    for (const { table_name } of tables) {
      const rows = await tx.query<{ r: string }>(`select t::text as r from public.${table_name} t where user_id = $1 order by 1`, [userId]);
      out[table_name] = rows.map((row) => row.r);
    }
    return out;
  });
}

describe("every route is in the table", () => {
  it("covers each exported method of each app/api/**/route.ts, and nothing that does not exist", () => {
    const exported = [...routes].flatMap(([route, mod]) => METHODS.filter((m) => typeof mod[m] === "function").map((m) => `${m} ${route}`));
    const tabled = new Set(ATTEMPTS.map((a) => `${a.method} ${a.route}`));
    expect(exported.length).toBeGreaterThan(40);
    expect(exported.filter((r) => !tabled.has(r)), "routes missing from ATTEMPTS").toEqual([]);
    expect([...tabled].filter((r) => !exported.includes(r)), "ATTEMPTS naming no route").toEqual([]);
  });
});

describe("user B against user A's objects", () => {
  let a: TestUser;
  let b: TestUser;
  let ids: Ids;
  let before: Record<string, string[]>;

  beforeAll(async () => {
    a = await signUp(saas, "tenant-a");
    b = await signUp(saas, "tenant-b");
    const own = await seedA(a);
    const bSession = ((await as(b, "POST", "/api/session", { body: () => ({ title: "B's session" }) })).session as { id: string }).id;
    ids = { ...own, bSession };
    before = await snapshotOf(h, a.id);
    expect(before.sessions.length).toBe(2);
    expect(before.compaction_logs.length).toBe(1);
  }, 120_000);

  it.each(ATTEMPTS.filter((t) => t.expect === "not_found").map((t) => [label(t), t] as const))("%s is 404", async (_l, attempt) => {
    const res = await call(attempt, ids, b.bearer);
    const text = await res.text();
    expect(res.status, text).toBe(404);
    // The drop-in Messages API answers in Anthropic's shape, `{ type: "error", error: { type } }`;
    // the OpenAI-compatible endpoint in OpenAI's, whose `code` is ours.
    const error = (JSON.parse(text) as { error: { code?: string; type?: string } }).error;
    expect(error.code ?? error.type).toBe(attempt.route.startsWith("/api/anthropic/") ? "not_found_error" : "not_found");
    expect(text.toLowerCase()).not.toContain(MARK);
    // No existence oracle: A's ids are answered exactly like ids that never existed.
    const unknown = Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, k === "bSession" ? v : randomUUID()])) as unknown as Ids;
    const other = await call(attempt, unknown, b.bearer);
    const neutral = (body: string, of: Ids) => Object.values(of).reduce((t, id) => t.split(id).join("<id>"), body);
    expect(other.status).toBe(404);
    expect(neutral(await other.text(), unknown)).toBe(neutral(text, ids));
  });

  it("B's API key, with every scope, acts as B: the same 404s", async () => {
    const { secret } = (await as(b, "POST", "/api/keys", { body: () => ({ name: "B's admin key", scopes: ["admin"] }) })) as { secret: string };
    const byKey = { authorization: `Bearer ${secret}` };
    const statuses = [];
    for (const t of ATTEMPTS.filter((x) => x.expect === "not_found")) statuses.push([label(t), (await call(t, ids, byKey)).status] as const);
    expect(statuses.filter(([, status]) => status !== 404)).toEqual([]);
    // Every user can mint an admin key, so an operator's route refuses it too.
    for (const t of ATTEMPTS.filter((x) => x.expect === "operator")) {
      const res = await call(t, ids, byKey);
      const text = await res.text();
      expect(res.status, `${label(t)}: ${text.slice(0, 300)}`).toBe(403);
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe("metrics_token_required");
      expect(text.toLowerCase()).not.toContain(MARK);
      for (const id of Object.values(ids)) expect(text).not.toContain(id);
    }
  });

  it.each(ATTEMPTS.filter((t) => t.expect === "operator").map((t) => [label(t), t] as const))("%s is 403 for a signed-in user", async (_l, attempt) => {
    const res = await call(attempt, ids, b.bearer);
    const text = await res.text();
    expect(res.status, text).toBe(403);
    expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe("metrics_token_required");
    expect(text.toLowerCase()).not.toContain(MARK);
  });

  it.each(ATTEMPTS.filter((t) => t.expect === "local_only").map((t) => [label(t), t] as const))("%s is 403 in SaaS mode", async (_l, attempt) => {
    const res = await call(attempt, ids, b.bearer);
    const text = await res.text();
    expect(res.status, text).toBe(403);
    expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe("key_managed_by_operator");
  });

  it.each(ATTEMPTS.filter((t) => t.expect === "own").map((t) => [label(t), t] as const))("%s shows nothing of A's", async (_l, attempt) => {
    const res = await call(attempt, ids, b.bearer);
    const text = await res.text();
    expect(res.status, text).toBeLessThan(300);
    expect(text.toLowerCase()).not.toContain(MARK);
    for (const id of Object.values(ids).filter((id) => id !== ids.bSession)) expect(text).not.toContain(id);
  });

  it("left every row of A's exactly as it was", async () => {
    expect(await snapshotOf(h, a.id)).toEqual(before);
  });

  it("A still sees all of it", async () => {
    const res = await call({ route: "/api/session/recent", method: "GET", expect: "own", query: () => `?q=${MARK}` }, ids, a.bearer);
    expect(await res.text()).toContain(ids.session);
    const found = await call({ route: "/api/search", method: "GET", expect: "own", query: () => `?q=${MARK}+launch` }, ids, a.bearer);
    expect(await found.text()).toContain(ids.session);
    // The words of A's file, which B's same search never saw.
    const inFile = await call({ route: "/api/search", method: "GET", expect: "own", query: () => `?q=${MARK}.txt%20text` }, ids, a.bearer);
    expect(((await inFile.json()) as { hits: { file?: { id: string } }[] }).hits.map((x) => x.file?.id)).toContain(ids.file);
    const facts = await call({ route: "/api/memory/search", method: "POST", expect: "own", body: () => ({ query: `${MARK} launch Lisbon`, kind: "fact" }) }, ids, a.bearer);
    expect(await facts.text()).toContain(`${MARK} launch in Lisbon`);
    // The usage B saw none of is there for A: its most expensive session is the marked one.
    const usage = await call({ route: "/api/usage/summary", method: "GET", expect: "own" }, ids, a.bearer);
    const text = await usage.text();
    expect(text).toContain(ids.session);
    expect(text).toContain(MARK);
  });
});

describe("tokens missing, expired, forged or of an unknown kid", () => {
  const BAD: [string, MintOptions | null][] = [
    ["missing", null],
    ["expired", { expiresIn: -30 }],
    ["forged", { signing: "forged" }],
    ["of an unknown kid", { signing: "unknown-kid" }],
  ];
  const everyRoute = [...new Map(ATTEMPTS.map((t) => [`${t.method} ${t.route}`, t])).values()];
  const guarded = () => everyRoute.filter((t) => !isPublic(t));

  it("only the health check is public, and it answers any token, or none, without reading it", async () => {
    expect(everyRoute.filter(isPublic).map((t) => `${t.method} ${t.route}`)).toEqual(["GET /api/health"]);
    const user = await signUp(saas, "public");
    const anyCredentials: Record<string, string>[] = [{}, { authorization: `Bearer ${await saas.auth.mintToken({ user: user.email, signing: "forged" })}` }, { authorization: "Bearer tk_live_nope" }];
    for (const headers of anyCredentials) {
      const res = await call({ route: "/api/health", method: "GET", expect: "own" }, NO_IDS, headers);
      expect(res.status).toBe(200);
      expect(Object.keys((await res.json()) as object).sort()).toEqual(["database", "migration", "status", "version"]);
    }
  });

  it.each(BAD)("a token %s is 401 on every route and method", async (_what, mint) => {
    const user = await signUp(saas, "bad-token");
    const headers: Record<string, string> = mint ? { authorization: `Bearer ${await saas.auth.mintToken({ user: user.email, ...mint })}` } : {};
    const statuses = await Promise.all(guarded().map(async (t) => [`${t.method} ${t.route}`, (await call(t, NO_IDS, headers)).status] as const));
    expect(statuses.filter(([, status]) => status !== 401)).toEqual([]);
  });

  it("an API key that is mistyped, unknown or revoked is 401 on every route and method", async () => {
    const user = await signUp(saas, "bad-key");
    const { key, secret } = (await as(user, "POST", "/api/keys", { body: () => ({ name: "soon revoked", scopes: ["admin"] }) })) as {
      key: { id: string };
      secret: string;
    };
    await as(user, "DELETE", "/api/keys/[id]", { params: () => ({ id: key.id }) });
    const typo = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    const { generateKey } = await import("@/lib/keys/format");
    const { resetFailedAuth } = await import("@/lib/limits/failed-auth");
    for (const bad of [secret, typo, generateKey().secret]) {
      // Every route once from its own address: the point is the 401, not the failed-key limit's 429.
      resetFailedAuth();
      const headers = (i: number) => ({ authorization: `Bearer ${bad}`, "x-forwarded-for": `198.51.100.${i}` });
      const statuses = await Promise.all(guarded().map(async (t, i) => [`${t.method} ${t.route}`, (await call(t, NO_IDS, headers(i))).status] as const));
      expect(statuses.filter(([, status]) => status !== 401)).toEqual([]);
    }
  });
});
