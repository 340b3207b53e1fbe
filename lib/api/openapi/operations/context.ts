import { z } from "zod";
import { compactionIdParams, idParams, messageIdParams, putSettingsSchema, sessionIdParams, sessionScopeQuery, statusQuery } from "@/lib/contract/requests";
import { compactSchema } from "@/lib/operations/compact";
import { templateSchema } from "@/lib/operations/templates";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { compaction, compactionOutcome, contextStatus, settingsView, template } from "@/lib/contract/context";
import { message } from "@/lib/contract/messages";

export const context: OperationGroup = {
  tag: "Context",
  description: "The context window: status, settings, compaction and its undo, protection, summary templates.",
  operations: [
    {
      method: "GET",
      path: "/api/context/status",
      operationId: "getContextStatus",
      summary: "How full the session's context window is",
      query: statusQuery,
      responses: { 200: { description: "The status.", json: contextStatus } },
      errors: [E.notFound],
    },
    {
      method: "GET",
      path: "/api/context/settings",
      operationId: "getSettings",
      summary: "Your default settings, or a session's",
      query: sessionScopeQuery,
      responses: { 200: { description: "What is stored at that scope and what takes effect.", json: settingsView } },
      errors: [E.notFound],
    },
    {
      method: "PUT",
      path: "/api/context/settings",
      operationId: "putSettings",
      summary: "Change your defaults, or a session's overrides",
      description: "Only the fields sent change. The session may be named in the query or the body.",
      scope: "admin",
      query: sessionScopeQuery,
      body: putSettingsSchema,
      responses: { 200: { description: "The settings after the change.", json: settingsView } },
      errors: [E.notFound],
    },
    {
      method: "POST",
      path: "/api/context/compact",
      operationId: "compact",
      summary: "Condense older turns into a summary now",
      description: "Below the threshold only with `force`. `instructions` steer the summary; `preset` or `template_id` pick its prompt.",
      body: compactSchema,
      responses: { 201: { description: "The compaction and the status after it.", json: compactionOutcome } },
      errors: [E.notFound, E.sessionBusy, E.belowThreshold, E.nothingToCompact, E.littleGain, E.compactionConflict, E.compactionRateLimited],
    },
    {
      method: "POST",
      path: "/api/context/compact/{compaction_id}/undo",
      operationId: "undoCompaction",
      summary: "Undo the session's latest compaction",
      params: compactionIdParams,
      responses: { 200: { description: "The reverted compaction and the status after it.", json: compactionOutcome } },
      errors: [E.sessionBusy, E.cannotUndo],
    },
    {
      method: "GET",
      path: "/api/context/history/{session_id}",
      operationId: "compactionHistory",
      summary: "A session's compactions with their metrics",
      params: sessionIdParams,
      responses: { 200: { description: "Oldest first.", json: z.object({ compactions: z.array(compaction) }) } },
    },
    {
      method: "POST",
      path: "/api/context/protect/{message_id}",
      operationId: "protectMessage",
      summary: "Protect a message: its turn never slides out",
      description: "A fork shows its source's messages under the same ids: pass the fork's `session_id` to protect one there.",
      params: messageIdParams,
      query: sessionScopeQuery,
      responses: { 200: { description: "The message.", json: z.object({ message }) } },
    },
    {
      method: "DELETE",
      path: "/api/context/protect/{message_id}",
      operationId: "unprotectMessage",
      summary: "Unprotect a message",
      params: messageIdParams,
      query: sessionScopeQuery,
      responses: { 200: { description: "The message.", json: z.object({ message }) } },
    },
    {
      method: "GET",
      path: "/api/context/templates",
      operationId: "listTemplates",
      summary: "Summary templates: the presets and yours",
      responses: { 200: { description: "Presets first.", json: z.object({ templates: z.array(template) }) } },
    },
    {
      method: "POST",
      path: "/api/context/templates",
      operationId: "saveTemplate",
      summary: "Save a summary template",
      body: templateSchema,
      responses: { 201: { description: "The template.", json: z.object({ template }) } },
      errors: [E.duplicateName],
    },
    {
      method: "DELETE",
      path: "/api/context/templates/{id}",
      operationId: "deleteTemplate",
      summary: "Delete one of your templates",
      params: idParams,
      responses: { 204: { description: "Deleted." } },
    },
  ],
};
