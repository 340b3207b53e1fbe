import { z } from "zod";
import {
  anthropicCountRequest,
  anthropicCreateRequest,
  anthropicMessage,
  anthropicModel,
  anthropicModelPage,
  anthropicModelsQuery,
  anthropicStreamEvent,
  anthropicTokenCount,
  MAX_DROP_IN_MESSAGES,
  SESSION_HEADER,
  TOOLS_HEADER,
} from "../anthropic";
import { group } from "../endpoint";

/** Clients resend whole conversations, images included. */
export const MESSAGES_BODY_LIMIT = 32 * 1024 * 1024;

export const sessionHeader = {
  name: SESSION_HEADER,
  description:
    "The Threadkeeper session this request continues. Without it the session is found as docs/api.md describes (a tool result for a call the caller was just given, a resent history the caller last saw, a client's own conversation header such as `X-Claude-Code-Session-Id`), else created; `threadkeeper-session-found` says how. An unknown or foreign id is a 404.",
  schema: z.uuid(),
};

export const toolsHeader = {
  name: TOOLS_HEADER,
  description:
    "Which of Threadkeeper's own tools Claude is offered in this session from now on: `recall`, `canvas`, both comma-separated, or `none`. Without it the API key's choice applies, else the session's settings (a session an API request creates offers recall only).",
  schema: z.string().max(100),
};

export const anthropicApi = group(
  "Anthropic Messages API",
  "A drop-in for the Anthropic Messages API (https://docs.claude.com/en/api/messages): point an Anthropic SDK's `baseURL` at `<origin>/api/anthropic` and its `apiKey` at a Threadkeeper key (sent as `x-api-key`; `Authorization: Bearer` works too). Each conversation is a Threadkeeper session with its managed window, compaction, memories, recall and costs. Errors on these paths take the API's shape, `{ type: \"error\", error: { type, message } }`.",
  {
    anthropicCreateMessage: {
      method: "POST",
      path: "/api/anthropic/v1/messages",
      summary: "Create a message (Messages API)",
      description: [
        "The Messages API request and answer (JSON, or its SSE event sequence with `stream: true`). The conversation is the session of the `threadkeeper-session-id` header, or the one the request continues without it (a tool result, a resent history, a client's conversation header), or a new one; every answer names it in the same header, and `threadkeeper-session-found` says how it was found: `header`, `tool_result`, `history`, `conversation` or `new`.",
        "",
        "Send only the new user message, or the whole conversation as most clients do: messages the session already holds are recognised by content and never stored twice. A history that differs from the session replaces the session's turns from the first difference on (they stay as earlier versions); `threadkeeper-history` says which case applied: `new`, `appended`, `resent`, `continued` (a tool_result for the caller's tool), `retried`, `imported` or `edited`.",
        "",
        `A request carries at most ${MAX_DROP_IN_MESSAGES} messages (413 beyond). A history the session lacks is stored before the answer starts; it counts toward the time to the first byte, about a millisecond a message.`,
        "",
        "The caller's `tools` are the caller's: a call to one ends the answer with `stop_reason: \"tool_use\"`, and the `tool_result` in the next request continues the turn. Threadkeeper's own tools (recall) run inside the request and are not shown.",
      ].join("\n"),
      scope: "write",
      send: true,
      dialect: "anthropic",
      body: anthropicCreateRequest,
      bodyLimit: MESSAGES_BODY_LIMIT,
      headers: [sessionHeader, toolsHeader],
      responses: {
        200: { description: "The reply; with `stream: true`, its Server-Sent Events.", json: anthropicMessage, events: anthropicStreamEvent },
      },
    },
    anthropicCountTokens: {
      method: "POST",
      path: "/api/anthropic/v1/messages/count_tokens",
      summary: "Count a request's tokens (Messages API)",
      description: "What the managed request would count: with `threadkeeper-session-id`, the session's window with these messages recognised as in a create; stores nothing.",
      scope: "read",
      dialect: "anthropic",
      body: anthropicCountRequest,
      bodyLimit: MESSAGES_BODY_LIMIT,
      headers: [sessionHeader],
      responses: { 200: { description: "The count.", json: anthropicTokenCount } },
    },
    anthropicListModels: {
      method: "GET",
      path: "/api/anthropic/v1/models",
      summary: "List models (Models API)",
      description: "The models Threadkeeper knows (its registry), newest first.",
      dialect: "anthropic",
      query: anthropicModelsQuery,
      responses: { 200: { description: "A page of models.", json: anthropicModelPage } },
    },
    anthropicGetModel: {
      method: "GET",
      path: "/api/anthropic/v1/models/{model_id}",
      summary: "Get a model (Models API)",
      dialect: "anthropic",
      params: z.object({ model_id: z.string().min(1).max(200) }),
      responses: { 200: { description: "The model.", json: anthropicModel } },
    },
  },
);
