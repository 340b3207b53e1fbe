// What a person keeps between visits: a draft per session, the account's custom instructions and
// a session's system prompt, and (local mode) the Anthropic key typed into the app.
import { z } from "zod";
import { described, named, timestamp, uuidString } from "./meta";
import { MAX_ATTACHMENTS } from "./files";

/** Characters of a draft: far above any message worth typing, well below what the row allows. */
export const MAX_DRAFT_CHARS = 100_000;
/** Characters of custom instructions. */
export const MAX_INSTRUCTIONS_CHARS = 20_000;
/** Characters of a session's system prompt: room for a long pasted brief. */
export const MAX_SYSTEM_PROMPT_CHARS = 100_000;

const draftAttachment = z.object({ id: uuidString(), by_reference: z.boolean() }).strict();

export const draft = named(
  "Draft",
  z.object({
    text: z.string(),
    attachments: described(z.array(draftAttachment), "Files already uploaded to the session for this draft, in order."),
    updated_at: described(timestamp().nullable(), "When it was last saved; null: no draft."),
  }),
  "What was typed in a session's composer and not yet sent.",
);

export const putDraftSchema = z
  .object({
    text: z.string().max(MAX_DRAFT_CHARS),
    attachments: z.array(draftAttachment).max(MAX_ATTACHMENTS).default([]),
  })
  .strict();

export const instructions = named(
  "CustomInstructions",
  z.object({
    instructions: described(z.string(), "What Claude should know about you and how to answer; copied into each new session the app creates."),
  }),
);

export const putInstructionsSchema = z.object({ instructions: z.string().max(MAX_INSTRUCTIONS_CHARS) }).strict();

export const systemPrompt = named(
  "SessionSystemPrompt",
  z.object({
    system_prompt: z.string(),
    instructions: described(z.string(), "The custom instructions this session carries (copied from the account's when it was created)."),
    tokens: described(z.int().nonnegative(), "Estimated tokens of both, as the token bar counts them in the system prompt."),
  }),
);

export const putSystemPromptSchema = z
  .object({
    system_prompt: z.string().max(MAX_SYSTEM_PROMPT_CHARS).optional(),
    instructions: z.string().max(MAX_INSTRUCTIONS_CHARS).optional(),
  })
  .strict();

export const anthropicKeyStatus = named(
  "AnthropicKeyStatus",
  z.object({
    source: described(z.enum(["environment", "app", "none"]), "Where the key Claude is called with comes from: ANTHROPIC_API_KEY (which wins), the key saved here, or none (the offline responder answers)."),
    last4: described(z.string().nullable(), "The last four characters of the key in use; never more."),
    can_set: described(z.boolean(), "Whether a key can be saved from the app: local mode only."),
  }),
);

/** What an Anthropic key looks like: checked before it is stored (and by the form before it is sent). */
export const ANTHROPIC_KEY_PATTERN = /^sk-ant-[A-Za-z0-9_-]{13,}$/;

export const putAnthropicKeySchema = z
  .object({ key: z.string().trim().max(300).regex(ANTHROPIC_KEY_PATTERN, "That is not an Anthropic key: one starts with sk-ant- and holds only letters, digits, - and _.") })
  .strict();

export type DraftJson = z.infer<typeof draft>;
export type InstructionsJson = z.infer<typeof instructions>;
export type SystemPromptJson = z.infer<typeof systemPrompt>;
export type AnthropicKeyStatusJson = z.infer<typeof anthropicKeyStatus>;
