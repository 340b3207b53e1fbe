import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { idParams } from "../requests";
import {
  anthropicKeyStatus,
  draft,
  instructions,
  MAX_DRAFT_CHARS,
  MAX_INSTRUCTIONS_CHARS,
  MAX_SYSTEM_PROMPT_CHARS,
  putAnthropicKeySchema,
  putDraftSchema,
  putInstructionsSchema,
  putSystemPromptSchema,
  systemPrompt,
} from "../preferences";

export const preferences = group("Preferences", "Drafts, custom instructions, a session's system prompt, and the Anthropic key in local mode.", {
  getDraft: {
    method: "GET",
    path: "/api/session/{id}/draft",
    summary: "The session's unsent draft",
    params: idParams,
    responses: { 200: { description: "The draft (empty when there is none).", json: z.object({ draft }) } },
  },
  putDraft: {
    method: "PUT",
    path: "/api/session/{id}/draft",
    summary: "Save the session's draft",
    description: "Empty text and no attachments delete it. Sending a message does not: the app clears the draft it sent.",
    params: idParams,
    body: putDraftSchema,
    // Four bytes a character at most, escapes and attachments beside.
    bodyLimit: MAX_DRAFT_CHARS * 4 + 16 * 1024,
    responses: { 200: { description: "The draft as saved.", json: z.object({ draft }) } },
  },
  getSystemPrompt: {
    method: "GET",
    path: "/api/session/{id}/system-prompt",
    summary: "The session's system prompt and custom instructions",
    params: idParams,
    responses: { 200: { description: "What the session sends Claude before the conversation.", json: systemPrompt } },
  },
  putSystemPrompt: {
    method: "PUT",
    path: "/api/session/{id}/system-prompt",
    summary: "Change the session's system prompt or its custom instructions",
    description: "Only the fields sent change. Both are sent to Claude at the start of every request, cached, counted on the token bar, and never condensed.",
    params: idParams,
    body: putSystemPromptSchema,
    // Four bytes a character at most, for both fields.
    bodyLimit: (MAX_SYSTEM_PROMPT_CHARS + MAX_INSTRUCTIONS_CHARS) * 4 + 4 * 1024,
    responses: { 200: { description: "The session's system prompt after the change.", json: systemPrompt } },
  },
  getInstructions: {
    method: "GET",
    path: "/api/account/instructions",
    summary: "Your custom instructions",
    responses: { 200: { description: "The instructions.", json: instructions } },
  },
  putInstructions: {
    method: "PUT",
    path: "/api/account/instructions",
    summary: "Change your custom instructions",
    description: "They apply to sessions created from now on; a session's own copy changes through PUT /api/session/{id}/system-prompt.",
    scope: "admin",
    body: putInstructionsSchema,
    bodyLimit: MAX_INSTRUCTIONS_CHARS * 4 + 4 * 1024,
    responses: { 200: { description: "The instructions as saved.", json: instructions } },
  },
  getAnthropicKey: {
    method: "GET",
    path: "/api/account/anthropic-key",
    summary: "Whether Claude has a key, and where it comes from",
    description: "Never the key itself: its source and last four characters.",
    responses: { 200: { description: "The key's status.", json: anthropicKeyStatus } },
  },
  putAnthropicKey: {
    method: "PUT",
    path: "/api/account/anthropic-key",
    summary: "Save an Anthropic key (local mode)",
    description: "Stored in the data folder, readable by its owner only (0600); ANTHROPIC_API_KEY, when set, still wins. Takes effect on the next request, without a restart.",
    scope: "admin",
    body: putAnthropicKeySchema,
    bodyLimit: 4 * 1024,
    responses: { 200: { description: "The key's status.", json: anthropicKeyStatus } },
    errors: [E.keyManagedByOperator],
  },
  deleteAnthropicKey: {
    method: "DELETE",
    path: "/api/account/anthropic-key",
    summary: "Forget the saved Anthropic key (local mode)",
    scope: "admin",
    responses: { 200: { description: "The key's status.", json: anthropicKeyStatus } },
    errors: [E.keyManagedByOperator],
  },
});
