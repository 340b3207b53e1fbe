import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

/** The formats an import reads, told by content (lib/import). */
export const IMPORT_FORMATS = ["chatgpt", "claude", "claude-code", "threadkeeper"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The largest upload an import takes, unless THREADKEEPER_IMPORT_MAX_BYTES says otherwise. */
export const DEFAULT_IMPORT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

export const importError = named(
  "ImportError",
  z.object({
    source_id: described(z.string(), "The conversation's id in the export."),
    title: z.string().nullable(),
    reason: z.string(),
  }),
  "One conversation that was not imported, and why; the others were.",
);

export const importJob = named(
  "Import",
  z.object({
    id: uuidString(),
    status: described(z.enum(["running", "done", "failed", "cancelled"]), "`failed`: the file as a whole could not be read (`error` says why); conversations stored before that are kept."),
    file_name: z.string().nullable(),
    format: described(z.enum(IMPORT_FORMATS).nullable(), "Told by the content, once the first conversation is read."),
    bytes: count(),
    bytes_read: described(count(), "How far into the file reading has got: `bytes_read / bytes` is the progress."),
    imported: described(count(), "Conversations stored as new sessions."),
    skipped: described(count(), "Conversations already imported before (by their id in the export)."),
    failed: count(),
    errors: described(z.array(importError), "The first 200 conversations that failed."),
    error: z.string().nullable(),
    created_at: timestamp(),
    finished_at: timestamp().nullable(),
    archive: described(
      z
        .object({
          status: z.enum(["running", "done", "failed", "cancelled"]),
          total: described(count(), "Sessions this import made (those deleted since are not counted)."),
          archived: described(count(), "Of them, archived into memories (before this run too)."),
          failed: described(count(), "Sessions whose archiving failed in this run; archiving again tries them again."),
        })
        .strict(),
      "Archiving the sessions into memories (`POST /api/import/{id}/archive`); null until asked.",
    ).nullable(),
  }),
  "An import of an export file and how far it has got.",
);

export const importsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }).strict();

export type ImportJson = z.infer<typeof importJob>;
