import { z } from "zod";
import { MAX_DROP_IN_MESSAGES } from "../anthropic";
import { openaiChatCompletion, openaiChatRequest, openaiModel, openaiModelList, openaiStreamFrame } from "../openai";
import { group } from "../endpoint";
import { MESSAGES_BODY_LIMIT, sessionHeader, toolsHeader } from "./anthropic";

export const openaiApi = group(
  "OpenAI-compatible API",
  "OpenAI's Chat Completions and Models APIs (https://platform.openai.com/docs/api-reference/chat) in front of Claude: point an OpenAI client's base URL at `<origin>/api/openai/v1` and its API key at a Threadkeeper key (sent as `Authorization: Bearer`). Each conversation is a Threadkeeper session, run exactly as the drop-in Messages API runs it. Fields map as Anthropic's OpenAI SDK compatibility layer maps them (docs/api.md has the table). Errors on these paths take OpenAI's shape, `{ error: { message, type, param, code } }`.",
  {
    openaiChatCompletions: {
      method: "POST",
      path: "/api/openai/v1/chat/completions",
      summary: "Create a chat completion (OpenAI-compatible)",
      description: [
        "A Chat Completions request answered by Claude as a Threadkeeper turn: the `chat.completion` as JSON, or its `chat.completion.chunk` frames with `stream: true` (a last chunk with `usage` and no choices when `stream_options.include_usage` is set, then `[DONE]`).",
        "",
        "The conversation is the session of the `threadkeeper-session-id` header, or the one the request continues without it (tool results for the calls just returned, a resent history, a client's conversation header such as `X-OpenWebUI-Chat-Id`), or a new one; the answer names it in the same header, says how it was found in `threadkeeper-session-found` and what was done with the request's messages in `threadkeeper-history` (as the drop-in Messages API does). Send the whole conversation, as OpenAI clients do: messages the session already holds are recognised and never stored twice.",
        "",
        `System and developer messages become the session's system prompt; a call of one of the request's \`tools\` ends the answer with \`finish_reason: "tool_calls"\`, and the \`role: "tool"\` results in the next request continue the turn. Threadkeeper's own tools (recall) run inside the request and are not shown, nor is Claude's thinking. At most ${MAX_DROP_IN_MESSAGES} messages a request (413 beyond).`,
      ].join("\n"),
      scope: "write",
      send: true,
      dialect: "openai",
      body: openaiChatRequest,
      bodyLimit: MESSAGES_BODY_LIMIT,
      headers: [sessionHeader, toolsHeader],
      responses: {
        200: { description: "The completion; with `stream: true`, its data-only Server-Sent Events.", json: openaiChatCompletion, events: openaiStreamFrame },
      },
    },
    openaiListModels: {
      method: "GET",
      path: "/api/openai/v1/models",
      summary: "List models (OpenAI-compatible)",
      description: "The models Threadkeeper knows (its registry), newest first, as OpenAI lists models.",
      dialect: "openai",
      responses: { 200: { description: "Every model.", json: openaiModelList } },
    },
    openaiGetModel: {
      method: "GET",
      path: "/api/openai/v1/models/{model_id}",
      summary: "Get a model (OpenAI-compatible)",
      description: "An unknown id is a 404 with code `model_not_found`.",
      dialect: "openai",
      params: z.object({ model_id: z.string().min(1).max(200) }),
      responses: { 200: { description: "The model.", json: openaiModel } },
    },
  },
);
