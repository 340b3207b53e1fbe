// What a request may carry: path parameters, query strings and bodies. The endpoint
// descriptors (./endpoints) name them, route() parses with them, and /api/openapi.json is
// generated from these very objects: a constraint changed here changes the document too.
import { z } from "zod";
import { env } from "@/lib/env";
import { elementId } from "./canvas-elements";
import { PRESET_NAMES } from "./context";
import { keyTools, SCOPES, WEBHOOK_EVENTS } from "./integrations";
import { attachment, MAX_ATTACHMENTS } from "./files";
import { uuid } from "./meta";
import { modelId, settingsSchema } from "./settings";

// Path parameters, named as the route folders name them.
export const idParams = z.object({ id: uuid });
export const sessionIdParams = z.object({ session_id: uuid });
export const compactionIdParams = z.object({ compaction_id: uuid });
export const messageIdParams = z.object({ message_id: uuid });
export const memoryIdParams = z.object({ memory_id: uuid });
export const projectIdParams = z.object({ project_id: uuid });
export const sessionMemoryParams = z.object({ id: uuid, memory_id: uuid });
export const canvasElementParams = z.object({ id: uuid, element_id: elementId });

// Query strings.
export const sessionListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }).strict();

export const messagesPageQuery = z
  .object({
    before_seq: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const recentCheckpointsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }).strict();

export const statusQuery = z.object({ session_id: uuid }).strict();

/** The canvas now, or as it was at one of the session's checkpoints. */
export const canvasQuery = z.object({ checkpoint_id: uuid.optional() }).strict();

/**
 * Settings: without it the user's defaults are meant. Protect: a fork shares its source's
 * messages, so it says in which session's view to (un)protect.
 */
export const sessionScopeQuery = z.object({ session_id: uuid.optional() }).strict();

// Bodies.
export const pinSchema = z.object({ pinned: z.boolean() }).strict();

/** The session may also be named in the body; the body wins over the query. */
export const putSettingsSchema = settingsSchema.extend({ session_id: uuid.optional() });

// Sessions.
export const createSessionSchema = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    model: modelId.optional(),
    settings: settingsSchema.omit({ model: true }).optional(),
  })
  .strict();

export const recentQuery = z
  .object({
    q: z.string().trim().min(1).max(200).optional(),
    project_id: z.string().uuid().optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(20),
  })
  .strict();

export const patchSessionSchema = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    project_id: z.string().uuid().nullable().optional(),
    pinned: z.boolean().optional(),
    // Archiving makes a memory (POST …/archive); only the way back is a plain update.
    archived: z.literal(false).optional(),
  })
  .strict();

export const recoverSchema = z.object({ dismiss_session_id: z.string().uuid().optional() }).strict();

export const projectSchema = z.object({ name: z.string().trim().min(1).max(100) }).strict();

// Checkpoints.
export const saveSchema = z
  .object({ session_id: z.string().uuid(), label: z.string().trim().min(1).max(200).optional() })
  .strict();

// Context.
export const compactSchema = z
  .object({
    session_id: z.string().uuid(),
    force: z.boolean().optional(),
    instructions: z.string().trim().min(1).max(4000).optional(),
    preset: z
      .string()
      .refine((p) => (PRESET_NAMES as readonly string[]).includes(p), { message: `Unknown preset. Presets: ${PRESET_NAMES.join(", ")}` })
      .optional(),
    template_id: z.string().uuid().optional(),
  })
  .strict()
  .refine((b) => !(b.preset && b.template_id), { message: "Give either 'preset' or 'template_id'", path: ["preset"] });

export const templateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    body: z.string().trim().min(20, "must be at least 20 characters").max(20_000),
  })
  .strict();

// Memory.
/** The longest memory search query, by the API or by a first message (see memoryQuery). */
export const MAX_QUERY_CHARS = 2_000;

export const searchSchema = z
  .object({
    query: z.string().trim().min(1).max(MAX_QUERY_CHARS),
    project_id: z.string().uuid().optional(),
    tags: z.array(z.string().min(1).max(50)).max(20).optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    kind: z.enum(["summary", "fact"]).optional(),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict();

export const saveMemorySchema = z
  .object({
    session_id: z.string().uuid().optional(),
    project_id: z.string().uuid().optional(),
    summary: z.string().trim().min(1).max(100_000),
    key_decisions: z.array(z.string().min(1).max(2000)).max(100).default([]),
    code_references: z.array(z.string().min(1).max(500)).max(200).default([]),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  })
  .strict();

// The canvas.
/** The user's answer to a confirmation on the canvas (its buttons): recorded on the element; the UI sends the choice as a message too. */
export const choiceSchema = z.object({ choice: z.string().trim().min(1).max(60) }).strict();

// Messages. A message's own size limit; its envelope may add JSON escaping on top.
const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

export function maxMessageBytes(): number {
  return env().THREADKEEPER_MAX_MESSAGE_BYTES ?? DEFAULT_MAX_MESSAGE_BYTES;
}

export const sendSchema = z
  .object({
    content: z.string().trim().min(1, "must not be empty").optional(),
    /** Answer the last user message again (after an error or interrupted reply). */
    retry: z.literal(true).optional(),
    /** Answer the last user message anew; the earlier reply stays as an earlier version. */
    regenerate: z.literal(true).optional(),
    /** With `content`: an edit of this message (any of yours of the current version): a new version of the conversation from it. */
    edit_of: z.string().uuid().optional(),
    /** With `regenerate`: the reply to answer anew (any of the current version's); the last when left out. */
    reply_id: z.string().uuid().optional(),
    idempotency_key: z.string().min(1).max(200).optional(),
    /** Files uploaded with POST /api/session/{id}/files, sent with this message (content may then be left out). */
    attachments: z.array(attachment).min(1).max(MAX_ATTACHMENTS).optional(),
  })
  .strict()
  .refine((b) => [b.content ?? b.attachments, b.retry, b.regenerate].filter((x) => x !== undefined).length === 1, {
    message: "Send exactly one of 'content' (and/or 'attachments'), 'retry: true' or 'regenerate: true'",
    path: ["content"],
  })
  .refine((b) => b.edit_of === undefined || b.content !== undefined, {
    message: "'edit_of' needs the edited 'content'",
    path: ["edit_of"],
  })
  .refine((b) => b.reply_id === undefined || b.regenerate === true, {
    message: "'reply_id' goes with 'regenerate: true'",
    path: ["reply_id"],
  });

// History search.
export const historySearchQuery = z
  .object({
    q: z.string().trim().min(1).max(500),
    session_id: z.string().uuid().optional(),
    project_id: z.string().uuid().optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    include_thinking: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true")
      .describe("Also find Claude's replies by words in its thinking, which search otherwise leaves out (read without an index: slower on a long history)."),
  })
  .strict();

// Integrations.
export const auditQuery = z
  .object({
    action: z.string().regex(/^[a-z_]+(\.[a-z_*]+)*$/, "a dotted action such as compaction.applied, or a prefix such as compaction.*").optional(),
    target_id: z.string().min(1).max(100).optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const createWebhookSchema = z
  .object({
    url: z.string().url().max(2000),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
    secret: z.string().min(16).max(200).optional(),
  })
  .strict();

export const deliveriesQuery = z
  .object({ status: z.enum(["pending", "delivering", "delivered", "failed"]).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) })
  .strict();

export const updateKeySchema = z.object({ tools: keyTools }).strict();

export const createKeySchema = z
  .object({
    name: z.string().trim().min(1, "a key needs a name").max(100),
    scopes: z.array(z.enum(SCOPES)).min(1, "name at least one scope: read, write or admin"),
    tools: keyTools.optional(),
    expires_at: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2030-01-31T00:00:00Z" })
      .refine((v) => Date.parse(v) > Date.now(), "must be in the future")
      .nullable()
      .optional(),
  })
  .strict();
