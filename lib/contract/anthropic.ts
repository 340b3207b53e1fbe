// The Anthropic Messages API as Threadkeeper speaks it at /api/anthropic: the requests an
// Anthropic client sends and the answers it expects, written once. The grammar is Anthropic's
// (https://docs.claude.com/en/api/messages); unknown fields are ignored rather than refused, so a
// newer client still works, and block kinds Threadkeeper cannot keep are refused by name.
import { z } from "zod";
import { described, named } from "./meta";

const cacheControl = z.unknown().optional();

const textIn = z.object({ type: z.literal("text"), text: z.string().min(1, "text content blocks must be non-empty"), cache_control: cacheControl, citations: z.unknown().optional() });
const imageIn = z.object({
  type: z.literal("image"),
  source: z.discriminatedUnion("type", [
    z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
    z.object({ type: z.literal("url"), url: z.string() }),
  ]),
  cache_control: cacheControl,
});
const toolUseIn = z.object({
  type: z.literal("tool_use"),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cache_control: cacheControl,
});
const toolResultIn = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([textIn, imageIn]))]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});
// Claude's own thinking, resent by clients that keep whole replies: accepted and not kept.
const thinkingIn = z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() });
const redactedThinkingIn = z.object({ type: z.literal("redacted_thinking"), data: z.string() });

const anthropicBlockIn = z.discriminatedUnion("type", [textIn, imageIn, toolUseIn, toolResultIn, thinkingIn, redactedThinkingIn], {
  error: (issue) =>
    issue.code === "invalid_union"
      ? "Threadkeeper keeps text, image, tool_use and tool_result blocks (and accepts thinking blocks); documents and server tools are not supported"
      : undefined,
});
export type AnthropicBlockIn = z.infer<typeof anthropicBlockIn>;

export const anthropicMessageIn = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(anthropicBlockIn)]),
});
export type AnthropicMessageIn = z.infer<typeof anthropicMessageIn>;

/** A custom tool of the caller's: returned to it when Claude calls it, never run by Threadkeeper. */
export const anthropicTool = z.object({
  type: z.literal("custom").optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, "tool names are 1 to 128 letters, digits, _ or -"),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object") }),
  cache_control: cacheControl,
});

const toolChoice = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal("tool"), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal("none") }),
]);

const system = z.union([z.string(), z.array(z.object({ type: z.literal("text"), text: z.string(), cache_control: cacheControl }))]);

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
  tools: z.array(anthropicTool).optional(),
  tool_choice: toolChoice.optional(),
  thinking: z.unknown().optional(),
};

export const anthropicCountRequest = named("AnthropicCountTokensRequest", z.object(countFields), "A Messages API count_tokens request.");

export const anthropicCreateRequest = named(
  "AnthropicMessagesRequest",
  z.object({
    ...countFields,
    max_tokens: z.int().min(1),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.int().min(0).optional(),
    stop_sequences: z.array(z.string()).optional(),
    metadata: z.object({ user_id: z.string().max(256).nullable().optional() }).optional(),
  }),
  "A Messages API request. The conversation is the session named by the `threadkeeper-session-id` header (a new one without it).",
);
export type AnthropicCreateRequest = z.infer<typeof anthropicCreateRequest>;
export type AnthropicCountRequest = z.infer<typeof anthropicCountRequest>;

const usage = z.object({
  input_tokens: z.int(),
  output_tokens: z.int(),
  cache_creation_input_tokens: z.int().nullable(),
  cache_read_input_tokens: z.int().nullable(),
});

const blockOut = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() }),
]);

export const anthropicMessage = named(
  "AnthropicMessage",
  z.object({
    id: z.string(),
    type: z.literal("message"),
    role: z.literal("assistant"),
    model: z.string(),
    content: z.array(blockOut),
    stop_reason: z.enum(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal"]).nullable(),
    stop_sequence: z.string().nullable(),
    usage: described(usage, "What Claude billed for the managed request, summed over the requests of the turn."),
  }),
  "The reply, as the Messages API answers it.",
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
export const CONTEXT_TOKENS_HEADER = "threadkeeper-context-tokens";
export const CONTEXT_CAPACITY_HEADER = "threadkeeper-context-capacity";
export const CONTEXT_PERCENT_HEADER = "threadkeeper-context-percent";
