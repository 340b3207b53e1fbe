// Threadkeeper's own export: what GET /api/session/{id}/export?format=json answers, and what the
// whole-account export holds one of per session. Everything a session is, so it can be
// imported back losslessly: every message of every version, its compactions and checkpoints.
import { z } from "zod";
import { checkpoint } from "./checkpoints";
import { compaction } from "./context";
import { message } from "./messages";
import { described, named, timestamp } from "./meta";
import { session } from "./sessions";

export const EXPORT_FORMAT = "threadkeeper-export";
export const EXPORT_VERSION = 1;

export const sessionExport = named(
  "SessionExport",
  z.object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: timestamp(),
    session,
    system_prompt: z.string(),
    messages: described(z.array(message), "Every message, every version (edits and regenerations name what they replace), oldest first."),
    compactions: described(z.array(compaction), "Oldest first; `status` says which still applies."),
    checkpoints: described(z.array(checkpoint), "Newest first."),
  }),
  "One session, whole: Threadkeeper imports it back as it was.",
);

export const exportQuery = z.object({ format: z.enum(["json", "md"]).default("json") }).strict();

export type SessionExportJson = z.infer<typeof sessionExport>;
