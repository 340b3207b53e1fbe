import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { compactSchema, compactionIdParams, idParams, messageIdParams, putSettingsSchema, sessionIdParams, sessionScopeQuery, statusQuery, templateSchema } from "../requests";
import { compaction, compactionOutcome, contextStatus, settingsView, template } from "../context";
import { message } from "../messages";

export const context = group("Context", "The context window: status, settings, compaction and its undo, protection, summary templates.", {
  getContextStatus: {
    method: "GET",
    path: "/api/context/status",
    summary: "How full the session's context window is",
    query: statusQuery,
    responses: { 200: { description: "The status.", json: contextStatus } },
    errors: [E.notFound],
  },
  getSettings: {
    method: "GET",
    path: "/api/context/settings",
    summary: "Your default settings, or a session's",
    query: sessionScopeQuery,
    responses: { 200: { description: "What is stored at that scope and what takes effect.", json: settingsView } },
    errors: [E.notFound],
  },
  putSettings: {
    method: "PUT",
    path: "/api/context/settings",
    summary: "Change your defaults, or a session's overrides",
    description: "Only the fields sent change. The session may be named in the query or the body.",
    scope: "admin",
    query: sessionScopeQuery,
    body: putSettingsSchema,
    responses: { 200: { description: "The settings after the change.", json: settingsView } },
    errors: [E.notFound],
  },
  compact: {
    method: "POST",
    path: "/api/context/compact",
    summary: "Condense older turns into a summary now",
    description: "Below the threshold only with `force`. `instructions` steer the summary; `preset` or `template_id` pick its prompt.",
    body: compactSchema,
    bodyLimit: 64 * 1024,
    responses: { 201: { description: "The compaction and the status after it.", json: compactionOutcome } },
    errors: [E.notFound, E.sessionBusy, E.belowThreshold, E.nothingToCompact, E.littleGain, E.compactionConflict, E.compactionRateLimited],
  },
  undoCompaction: {
    method: "POST",
    path: "/api/context/compact/{compaction_id}/undo",
    summary: "Undo the session's latest compaction",
    params: compactionIdParams,
    responses: { 200: { description: "The reverted compaction and the status after it.", json: compactionOutcome } },
    errors: [E.sessionBusy, E.cannotUndo],
  },
  compactionHistory: {
    method: "GET",
    path: "/api/context/history/{session_id}",
    summary: "A session's compactions with their metrics",
    params: sessionIdParams,
    responses: { 200: { description: "Oldest first.", json: z.object({ compactions: z.array(compaction) }) } },
  },
  protectMessage: {
    method: "POST",
    path: "/api/context/protect/{message_id}",
    summary: "Protect a message: its turn never slides out",
    description: "A fork shows its source's messages under the same ids: pass the fork's `session_id` to protect one there.",
    params: messageIdParams,
    query: sessionScopeQuery,
    responses: { 200: { description: "The message.", json: z.object({ message }) } },
  },
  unprotectMessage: {
    method: "DELETE",
    path: "/api/context/protect/{message_id}",
    summary: "Unprotect a message",
    params: messageIdParams,
    query: sessionScopeQuery,
    responses: { 200: { description: "The message.", json: z.object({ message }) } },
  },
  listTemplates: {
    method: "GET",
    path: "/api/context/templates",
    summary: "Summary templates: the presets and yours",
    responses: { 200: { description: "Presets first.", json: z.object({ templates: z.array(template) }) } },
  },
  saveTemplate: {
    method: "POST",
    path: "/api/context/templates",
    summary: "Save a summary template",
    body: templateSchema,
    bodyLimit: 64 * 1024,
    responses: { 201: { description: "The template.", json: z.object({ template }) } },
    errors: [E.duplicateName],
  },
  deleteTemplate: {
    method: "DELETE",
    path: "/api/context/templates/{id}",
    summary: "Delete one of your templates",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
});
