// Every documented operation, by group. A new route adds an entry to its group (or a new
// group here); tests/unit/openapi.test.ts fails until every app/api/**/route.ts
// method has one.
import type { OperationGroup } from "../registry";
import { canvasOperations } from "./canvas";
import { checkpoints } from "./checkpoints";
import { audit, keys, webhooks } from "./integrations";
import { usage } from "./usage";
import { context } from "./context";
import { memories } from "./memory";
import { messages } from "./messages";
import { meta } from "./meta";
import { projects } from "./projects";
import { search } from "./search";
import { sessions } from "./sessions";

export const GROUPS: OperationGroup[] = [sessions, messages, canvasOperations, context, checkpoints, memories, search, projects, usage, audit, webhooks, keys, meta];

/**
 * Route files that answer without being operations of their own: the catch-all turns any
 * unknown /api path into the 404 error envelope.
 */
export const UNDOCUMENTED_ROUTES: Record<string, string> = {
  "/api/[...path]": "answers 404 not_found for every unknown /api path",
};
