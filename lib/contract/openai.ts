// OpenAI's Chat Completions API as Threadkeeper speaks it at /api/openai/v1: the requests an
// OpenAI client sends and the answers it expects, written once. The grammar is OpenAI's
// (https://platform.openai.com/docs/api-reference/chat); what each field becomes follows
// Anthropic's own OpenAI SDK compatibility layer (platform.claude.com/docs/en/api/openai-sdk),
// and lib/api/openai/request.ts translates a request into the drop-in's Messages API request.
import { z } from "zod";
import { described, named } from "./meta";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });

const userPart = z.discriminatedUnion("type", [
  textPart,
  z.looseObject({
    type: z.literal("image_url"),
    image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).nullish() }),
  }),
  // Anthropic's layer strips audio input; so do we.
  z.looseObject({ type: z.literal("input_audio"), input_audio: z.unknown() }),
  z.looseObject({
    type: z.literal("file"),
    file: z.looseObject({ file_data: z.string().nullish(), file_id: z.string().nullish(), filename: z.string().nullish() }),
  }),
]);

const assistantPart = z.discriminatedUnion("type", [textPart, z.looseObject({ type: z.literal("refusal"), refusal: z.string() })]);

const textContent = z.union([z.string(), z.array(textPart)]);

/** A call of the caller's function, as an assistant message carries it back. */
const toolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal("function").optional(),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

// Each role's message; fields beyond these (`name`, `audio`, …) are accepted and ignored.
const message = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content: textContent }),
  z.looseObject({ role: z.literal("developer"), content: textContent }),
  z.looseObject({ role: z.literal("user"), content: z.union([z.string(), z.array(userPart)]) }),
  z.looseObject({
    role: z.literal("assistant"),
    content: z.union([z.string(), z.array(assistantPart)]).nullish(),
    tool_calls: z.array(toolCall).nullish(),
    refusal: z.string().nullish(),
  }),
  z.looseObject({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: textContent }),
]);
export type OpenAIMessage = z.infer<typeof message>;
export type OpenAIUserPart = z.infer<typeof userPart>;

export const openaiTool = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "function names are 1 to 64 letters, digits, _ or -"),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: described(z.boolean().nullish(), "Ignored, as by Anthropic's compatibility layer: the arguments are not guaranteed to follow the schema."),
  }),
});

const toolChoice = z.union([
  z.enum(["none", "auto", "required"]),
  z.looseObject({ type: z.literal("function"), function: z.object({ name: z.string().min(1) }) }),
]);

const responseFormat = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({ name: z.string(), description: z.string().nullish(), schema: z.record(z.string(), z.unknown()).nullish(), strict: z.boolean().nullish() }),
  }),
]);

/**
 * Fields an OpenAI client may send that Claude has no counterpart for: accepted and ignored, as
 * Anthropic's compatibility layer ignores them (its list, and the few OpenAI added since).
 */
export const IGNORED_OPENAI_FIELDS = [
  "logprobs",
  "top_logprobs",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "seed",
  "store",
  "metadata",
  "service_tier",
  "reasoning_effort",
  "modalities",
  "audio",
  "prediction",
  "web_search_options",
  "verbosity",
  "prompt_cache_key",
  "safety_identifier",
] as const;

const ignored = Object.fromEntries(IGNORED_OPENAI_FIELDS.map((f) => [f, described(z.unknown().optional(), "Accepted and ignored.")]));

export const openaiChatRequest = named(
  "OpenAIChatCompletionRequest",
  z.looseObject({
    model: z.string().min(1),
    messages: z.array(message).min(1, "at least one message is required"),
    max_completion_tokens: z.int().min(1).nullish(),
    max_tokens: described(z.int().min(1).nullish(), "Older name of max_completion_tokens, which wins when both are sent."),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    temperature: described(z.number().min(0).max(2).nullish(), "OpenAI's 0 to 2; Claude's range is 0 to 1, so values above 1 are sent as 1."),
    top_p: z.number().min(0).max(1).nullish(),
    stop: z.union([z.string(), z.array(z.string())]).nullish(),
    n: described(z.int().min(1).max(1, "only n = 1 is supported: Claude gives one choice per request").nullish(), "Must be 1."),
    user: described(z.string().nullish(), "Sent to Claude as metadata.user_id (when at most 256 characters)."),
    tools: z.array(openaiTool).nullish(),
    tool_choice: toolChoice.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    response_format: responseFormat.nullish(),
    thinking: described(z.looseObject({ type: z.string() }).optional(), "Claude's extended thinking, in the Messages API's shape (as Anthropic's layer takes it); the thinking itself is not shown."),
    ...ignored,
  }),
  "A Chat Completions request. Fields not listed are ignored. The conversation is a Threadkeeper session, named by the `threadkeeper-session-id` header (a new one without it).",
);
export type OpenAIChatRequest = z.infer<typeof openaiChatRequest>;

export const FINISH_REASONS = ["stop", "length", "tool_calls", "content_filter"] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

const toolCallOut = z.object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }) });
export type OpenAIToolCall = z.infer<typeof toolCallOut>;

const usage = named(
  "OpenAIUsage",
  z.object({
    prompt_tokens: z.int(),
    completion_tokens: z.int(),
    total_tokens: z.int(),
    prompt_tokens_details: z.object({ cached_tokens: z.int() }),
  }),
  "What Claude billed for the turn: prompt tokens are input, cache writes and cache reads together; cached_tokens the cache reads.",
);
export type OpenAIUsage = z.infer<typeof usage>;

export const openaiChatCompletion = named(
  "OpenAIChatCompletion",
  z.object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.int(),
    model: z.string(),
    system_fingerprint: z.null(),
    choices: z.array(
      z.object({
        index: z.int(),
        message: z.object({
          role: z.literal("assistant"),
          content: z.string().nullable(),
          refusal: z.null(),
          tool_calls: z.array(toolCallOut).optional(),
        }),
        logprobs: z.null(),
        finish_reason: z.enum(FINISH_REASONS),
      }),
    ),
    usage,
  }),
  "The reply: its text (every round of the turn, Threadkeeper's own tool calls and Claude's thinking left out) and the calls of the caller's functions.",
);
export type OpenAIChatCompletion = z.infer<typeof openaiChatCompletion>;

const toolCallDelta = z.object({
  index: z.int(),
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
});

export const openaiChatChunk = named(
  "OpenAIChatCompletionChunk",
  z.object({
    id: z.string(),
    object: z.literal("chat.completion.chunk"),
    created: z.int(),
    model: z.string(),
    system_fingerprint: z.null(),
    choices: z.array(
      z.object({
        index: z.int(),
        delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional(), tool_calls: z.array(toolCallDelta).optional() }),
        logprobs: z.null(),
        finish_reason: z.enum(FINISH_REASONS).nullable(),
      }),
    ),
    usage: usage.nullable().optional(),
  }),
);
export type OpenAIChatChunk = z.infer<typeof openaiChatChunk>;

export const openaiStreamFrame = named(
  "OpenAIStreamFrame",
  z.looseObject({ data: z.union([openaiChatChunk, z.literal("[DONE]")]) }),
  "A data-only frame (no event name): a chunk, or last `[DONE]`. A failure after the answer started is a frame `{ error }` in the error shape.",
);

export const openaiModel = named("OpenAIModel", z.object({ id: z.string(), object: z.literal("model"), created: z.int(), owned_by: z.literal("anthropic") }));
export type OpenAIModelJson = z.infer<typeof openaiModel>;

export const openaiModelList = named("OpenAIModelList", z.object({ object: z.literal("list"), data: z.array(openaiModel) }));
export type OpenAIModelListJson = z.infer<typeof openaiModelList>;

/** The statuses the endpoint answers errors with, and the error type of each. */
export const OPENAI_ERROR_STATUSES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "invalid_request_error",
  // Another request of the same session is being answered; the SDK retries a 409.
  409: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  500: "server_error",
  503: "server_error",
  507: "server_error",
} as const;
type OpenAIErrorType = (typeof OPENAI_ERROR_STATUSES)[keyof typeof OPENAI_ERROR_STATUSES];

export function openaiErrorType(status: number): OpenAIErrorType {
  return (OPENAI_ERROR_STATUSES as Record<number, OpenAIErrorType>)[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
}

export const openaiError = named(
  "OpenAIError",
  z.object({
    error: z.object({
      message: z.string(),
      type: z.enum(["invalid_request_error", "authentication_error", "permission_error", "rate_limit_error", "server_error"]),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  }),
  "Every error on /api/openai, in OpenAI's shape, so OpenAI clients raise their usual typed errors. `code` is OpenAI's where it has one (invalid_api_key, model_not_found, context_length_exceeded, rate_limit_exceeded), else Threadkeeper's own.",
);
export type OpenAIErrorJson = z.infer<typeof openaiError>;
