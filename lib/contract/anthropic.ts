// The Anthropic Messages API as Threadkeeper speaks it at /api/anthropic: the requests an
// Anthropic client sends and the answers it expects, written once. The grammar is Anthropic's
// (https://docs.claude.com/en/api/messages); unknown fields and block kinds are passed through
// rather than refused, so a newer client still works.
import { z } from "zod";
import { decisiveIssues } from "./issues";
import { described, named } from "./meta";
import { contentBlock, KNOWN_BLOCK_TYPES, SERVER_RESULT_TYPES } from "./messages";

const cacheControl = z.unknown().optional();

// Blocks the API takes only on one side of the conversation; one in the wrong place is a 400 here,
// before anything is stored, rather than Claude's 400 after.
const ASSISTANT_ONLY: ReadonlySet<string> = new Set(["thinking", "redacted_thinking", "tool_use", "server_tool_use", "mcp_tool_use", "mcp_tool_result", ...SERVER_RESULT_TYPES]);
const USER_ONLY: ReadonlySet<string> = new Set(["tool_result", "image", "document", "search_result", "container_upload"]);

const DROP_IN = "Threadkeeper's drop-in";
// A file_id names a file of Anthropic's Files API: Threadkeeper does not serve that API, its own
// key cannot read the caller's files, and the session would send the id on every later request.
const FILES_API = `names a file of Anthropic's Files API, which ${DROP_IN} does not support`;
// The sources a client may send, by block; `threadkeeper_file` is Threadkeeper's own.
const CLIENT_SOURCES: Record<string, readonly string[]> = { image: ["base64", "url"], document: ["base64", "text", "url", "content"] };
// What a tool_result, and a document's `content` source, may hold.
const TOOL_RESULT_PARTS = ["text", "image", "document", "search_result"];
const CONTENT_SOURCE_PARTS = ["text", "image"];

type Path = (string | number)[];
type Loose = { type?: unknown } & Record<string, unknown>;

/**
 * What a client may not send inside a block of a kind Threadkeeper knows, with where it is: a
 * source or a nested block it does not take, a Files API reference, Threadkeeper's own notes. Said
 * before the block's fields are checked, since a union's error ("Invalid input") names neither.
 */
function refusal(b: Loose, at: Path = []): { path: Path; message: string } | null {
  if ("threadkeeper" in b) return { path: [...at, "threadkeeper"], message: `'threadkeeper' is Threadkeeper's own field and cannot be sent` };
  if (b.type === "container_upload") return { path: at, message: `block type 'container_upload' ${FILES_API}; send the file's content in the conversation instead` };
  const allowed = typeof b.type === "string" ? CLIENT_SOURCES[b.type] : undefined;
  const source = b.source as Loose | undefined;
  if (allowed && source && typeof source === "object") {
    const kind = source.type;
    const send = `send the ${b.type} itself as ${anyOf(allowed)}`;
    if (kind === "file") return { path: [...at, "source", "type"], message: `source type 'file' ${FILES_API}; ${send}` };
    if (typeof kind === "string" && !allowed.includes(kind)) {
      return { path: [...at, "source", "type"], message: `source type '${kind}' is not supported for ${b.type} blocks by ${DROP_IN}; ${send}` };
    }
    if (kind === "content" && Array.isArray(source.content)) return nested(source.content, [...at, "source", "content"], CONTENT_SOURCE_PARTS, "a document's content source");
  }
  if (b.type === "tool_result" && Array.isArray(b.content)) return nested(b.content, [...at, "content"], TOOL_RESULT_PARTS, "a tool_result");
  return null;
}

const anyOf = (xs: readonly string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}` : (xs[0] ?? ""));

function nested(parts: unknown[], at: Path, kinds: readonly string[], where: string): { path: Path; message: string } | null {
  for (const [i, p] of parts.entries()) {
    if (!p || typeof p !== "object") continue;
    const kind = (p as Loose).type;
    if (typeof kind === "string" && !kinds.includes(kind)) {
      return { path: [...at, i, "type"], message: `block type '${kind}' is not supported inside ${where} by ${DROP_IN}; it takes ${anyOf(kinds)}` };
    }
    const inner = refusal(p as Loose, [...at, i]);
    if (inner) return inner;
  }
  return null;
}

/**
 * A content block as a client sends it. Every kind the API has is checked against the content
 * model (lib/contract/messages.ts) with its fields named in the error; a kind Threadkeeper does
 * not know yet is accepted and kept verbatim, so a newer client still works.
 */
const anthropicBlockIn = described(
  z.looseObject({ type: z.string({ error: "every content block needs a 'type'" }).min(1), cache_control: cacheControl }).superRefine((b, ctx) => {
    if (!KNOWN_BLOCK_TYPES.has(b.type)) return;
    const refused = refusal(b);
    if (refused) {
      ctx.addIssue({ code: "custom", ...refused });
      return;
    }
    const parsed = contentBlock.safeParse(b);
    if (!parsed.success) for (const issue of decisiveIssues(parsed.error.issues)) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    else if (parsed.data.type === "text" && parsed.data.text === "") ctx.addIssue({ code: "custom", message: "text content blocks must be non-empty", path: ["text"] });
  }),
  "Any content block of the Messages API (text, image, document, search_result, thinking, redacted_thinking, tool_use, tool_result, server tool blocks, MCP connector blocks, container_upload); a kind Threadkeeper does not know is kept and sent back verbatim.",
);
export type AnthropicBlockIn = z.infer<typeof anthropicBlockIn>;

const systemContent = z.union([z.string(), z.array(z.looseObject({ type: z.literal("text"), text: z.string(), cache_control: cacheControl }))]);

export const anthropicMessageIn = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content: z.union([z.string(), z.array(anthropicBlockIn)]),
  })
  .superRefine((m, ctx) => {
    if (m.role === "system") {
      if (!systemContent.safeParse(m.content).success) ctx.addIssue({ code: "custom", message: "system messages hold text only", path: ["content"] });
      return;
    }
    if (typeof m.content === "string") return;
    const misplaced = m.role === "user" ? ASSISTANT_ONLY : USER_ONLY;
    m.content.forEach((b, i) => {
      if (misplaced.has(b.type)) ctx.addIssue({ code: "custom", message: `a ${b.type} block cannot appear in a ${m.role} message`, path: ["content", i, "type"] });
    });
  });
export type AnthropicMessageIn = z.infer<typeof anthropicMessageIn>;

/** A custom tool of the caller's: returned to it when Claude calls it, never run by Threadkeeper. Fields beyond these (defer_loading, strict, …) are sent as they came. */
export const anthropicTool = z.looseObject({
  type: z.literal("custom").optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, "tool names are 1 to 128 letters, digits, _ or -"),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object") }),
  cache_control: cacheControl,
});

/** A tool the API runs itself (web search, web fetch, code execution, …), versioned by its type. */
const serverTool = z.looseObject({ type: z.string().regex(/_\d{8}$/, "server tools are named by a dated type, such as web_search_20250305"), name: z.string().min(1) });

const toolChoice = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("tool"), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("none") }),
]);

const system = systemContent;

/**
 * The most messages one drop-in request may carry, counted as sent; more is a 413. A history the
 * session lacks is stored before the answer starts, in batches that leave the server responsive,
 * at about a millisecond a message on the embedded database: the bound keeps one request's wait
 * well under half a minute (10,000 took 47 s on a busy two-core machine, most of it compacting).
 */
export const MAX_DROP_IN_MESSAGES = 5_000;

const countFields = {
  model: z.string().min(1),
  messages: z.array(anthropicMessageIn).min(1, "at least one message is required"),
  system: system.optional(),
  tools: z.array(z.union([anthropicTool, serverTool])).optional(),
  tool_choice: toolChoice.optional(),
  thinking: z.looseObject({ type: z.string() }).optional(),
};

// Objects are loose: a field Threadkeeper does not handle itself (output_config, service_tier,
// container, mcp_servers, context_management, one the API adds tomorrow) reaches Claude as it came.
export const anthropicCountRequest = named("AnthropicCountTokensRequest", z.looseObject(countFields), "A Messages API count_tokens request.");

export const anthropicCreateRequest = named(
  "AnthropicMessagesRequest",
  z.looseObject({
    ...countFields,
    max_tokens: z.int().min(1),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.int().min(0).optional(),
    stop_sequences: z.array(z.string()).optional(),
    metadata: z.object({ user_id: z.string().max(256).nullable().optional() }).optional(),
  }),
  "A Messages API request. The conversation is the session named by the `threadkeeper-session-id` header (a new one without it). Fields not listed here reach Claude as they came.",
);
export type AnthropicCreateRequest = z.infer<typeof anthropicCreateRequest>;
export type AnthropicCountRequest = z.infer<typeof anthropicCountRequest>;

const usage = z.object({
  input_tokens: z.int(),
  output_tokens: z.int(),
  cache_creation_input_tokens: z.int().nullable(),
  cache_read_input_tokens: z.int().nullable(),
});

const blockOut = described(z.looseObject({ type: z.string() }), "A content block of Claude's reply, as Claude gave it: text (with citations), thinking and redacted_thinking (signature byte for byte), tool_use, server tool blocks and any kind the API adds.");

export const anthropicMessage = named(
  "AnthropicMessage",
  z.looseObject({
    id: z.string(),
    type: z.literal("message"),
    role: z.literal("assistant"),
    model: z.string(),
    content: z.array(blockOut),
    stop_reason: z.string().nullable(),
    stop_sequence: z.string().nullable(),
    usage: described(usage, "What Claude billed for the managed request, summed over the requests of the turn."),
  }),
  "The reply, as the Messages API answers it; fields the API adds to its answer (container, context_management, …) are passed on.",
);
export type AnthropicMessage = z.infer<typeof anthropicMessage>;
export type AnthropicUsage = z.infer<typeof usage>;
export type AnthropicBlockOut = z.infer<typeof blockOut>;

export const anthropicStreamEvent = named(
  "AnthropicStreamEvent",
  z.object({
    event: z.enum(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping", "error"]),
    data: z.looseObject({ type: z.string() }),
  }),
  "The Messages API's streaming events, in its order.",
);

export const anthropicTokenCount = named("AnthropicTokenCount", z.object({ input_tokens: z.int() }));

export const anthropicModel = named(
  "AnthropicModel",
  z.object({
    type: z.literal("model"),
    id: z.string(),
    display_name: z.string(),
    created_at: z.string(),
    max_input_tokens: z.int(),
    max_tokens: z.int(),
  }),
);
export type AnthropicModelJson = z.infer<typeof anthropicModel>;

export const anthropicModelPage = named(
  "AnthropicModelList",
  z.object({ data: z.array(anthropicModel), has_more: z.boolean(), first_id: z.string().nullable(), last_id: z.string().nullable() }),
);

export const anthropicModelsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  after_id: z.string().optional(),
  before_id: z.string().optional(),
});

const ANTHROPIC_ERROR_TYPES = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "overloaded_error",
] as const;
export type AnthropicErrorType = (typeof ANTHROPIC_ERROR_TYPES)[number];

/** The statuses the drop-in answers errors with, and the error type of each, as Anthropic's API pairs them. */
export const ANTHROPIC_ERROR_STATUSES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  // Another request of the same session is being answered; the SDK retries a 409.
  409: "invalid_request_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  // The server's storage is full (lib/errors.ts storageFull): no Anthropic status says so, and an
  // SDK treats any 5xx as an APIError it retries a couple of times before raising it.
  507: "api_error",
  529: "overloaded_error",
} as const satisfies Record<number, AnthropicErrorType>;

export function anthropicErrorType(status: number): AnthropicErrorType {
  return (ANTHROPIC_ERROR_STATUSES as Record<number, AnthropicErrorType>)[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

export const anthropicError = named(
  "AnthropicError",
  z.object({
    type: z.literal("error"),
    error: z.object({ type: z.enum(ANTHROPIC_ERROR_TYPES), message: z.string() }),
    request_id: z.string().nullable().optional(),
  }),
  "Every error on /api/anthropic, in the Messages API's shape, so Anthropic clients raise their usual typed errors.",
);
export type AnthropicErrorJson = z.infer<typeof anthropicError>;

/** Headers of the drop-in: the session a request continues, and what Threadkeeper did with it. */
export const SESSION_HEADER = "threadkeeper-session-id";
export const HISTORY_HEADER = "threadkeeper-history";
/** How an API request's session was found: `header`, `tool_result`, `history`, `conversation` or `new` (docs/api.md). */
export const SESSION_FOUND_HEADER = "threadkeeper-session-found";
/** Which of Threadkeeper's own tools a request offers Claude: `recall`, `canvas`, both comma-separated, or `none`. */
export const TOOLS_HEADER = "threadkeeper-tools";
export const CONTEXT_TOKENS_HEADER = "threadkeeper-context-tokens";
export const CONTEXT_CAPACITY_HEADER = "threadkeeper-context-capacity";
export const CONTEXT_PERCENT_HEADER = "threadkeeper-context-percent";
