// Every endpoint, by group. A new route adds an entry to its group (or a new group here) and
// binds its handler to it with route(); tests/unit/openapi.test.ts fails until every
// app/api/**/route.ts method is bound to the endpoint of its own method and path.
import type { EndpointGroup } from "../endpoint";
import { canvasOperations } from "./canvas";
import { checkpoints } from "./checkpoints";
import { context } from "./context";
import { exchange } from "./exchange";
import { anthropicApi } from "./anthropic";
import { audit, keys, webhooks } from "./integrations";
import { memories } from "./memory";
import { files } from "./files";
import { messages } from "./messages";
import { mcp } from "./mcp";
import { meta } from "./meta";
import { openaiApi } from "./openai";
import { operations } from "./operations";
import { preferences } from "./preferences";
import { projects } from "./projects";
import { search } from "./search";
import { sessions } from "./sessions";
import { usage } from "./usage";

export const GROUPS: EndpointGroup[] = [sessions, messages, files, preferences, canvasOperations, context, checkpoints, memories, search, projects, exchange, usage, audit, webhooks, keys, mcp, anthropicApi, openaiApi, operations, meta];

/** Every endpoint by its operationId: what a route file binds its handler to. */
export const api = {
  ...sessions.endpoints,
  ...messages.endpoints,
  ...files.endpoints,
  ...preferences.endpoints,
  ...canvasOperations.endpoints,
  ...context.endpoints,
  ...checkpoints.endpoints,
  ...memories.endpoints,
  ...search.endpoints,
  ...projects.endpoints,
  ...exchange.endpoints,
  ...usage.endpoints,
  ...audit.endpoints,
  ...webhooks.endpoints,
  ...keys.endpoints,
  ...mcp.endpoints,
  ...anthropicApi.endpoints,
  ...openaiApi.endpoints,
  ...operations.endpoints,
  ...meta.endpoints,
};

/**
 * Route files that answer without being endpoints of their own: the catch-all turns any
 * unknown /api path into the 404 error envelope.
 */
export const UNDOCUMENTED_ROUTES: Record<string, string> = {
  "/api/[...path]": "answers 404 not_found for every unknown /api path",
  "/api/anthropic/[...path]": "answers 404 in Anthropic's error shape for every unknown path of the drop-in Messages API",
  "/api/openai/[...path]": "answers 404 in OpenAI's error shape for every unknown path of the OpenAI-compatible endpoint",
};

/** The drop-in's catch-all: Anthropic's error shape, in no group. */
export const unknownAnthropicRoute = {
  method: "GET",
  path: "/api/anthropic/{path}",
  operationId: "unknownAnthropicRoute",
  summary: "Any unknown path of the drop-in Messages API",
  scope: "read",
  dialect: "anthropic",
  responses: {},
} as const;

/** The OpenAI-compatible endpoint's catch-all: OpenAI's error shape, in no group. */
export const unknownOpenAIRoute = {
  method: "GET",
  path: "/api/openai/{path}",
  operationId: "unknownOpenAIRoute",
  summary: "Any unknown path of the OpenAI-compatible endpoint",
  scope: "read",
  dialect: "openai",
  responses: {},
} as const;

/** The catch-all's descriptor: in no group, so not in the document. */
export const unknownRoute = { method: "GET", path: "/api/{path}", operationId: "unknownRoute", summary: "Any unknown /api path", scope: "read", responses: {} } as const;
