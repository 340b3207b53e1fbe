// The path and query shapes route handlers parse themselves (bodies live beside their
// operations in lib/chat). They sit here rather than inside app/api/**/route.ts because a
// route file may export only handlers, and /api/openapi.json is generated from these very
// objects: a constraint changed here changes the document too.
import { z } from "zod";
import { elementId } from "./canvas-elements";
import { settingsSchema } from "./settings";
import { uuid } from "./meta";

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

// Bodies that belong to no lib/chat operation of their own.
export const pinSchema = z.object({ pinned: z.boolean() }).strict();

/** The session may also be named in the body; the body wins over the query. */
export const putSettingsSchema = settingsSchema.extend({ session_id: uuid.optional() });
