// Threadkeeper's own export: what GET /api/session/{id}/export?format=json answers, and what the
// whole-account export holds one of per session. Everything a session is, so it can be
// imported back losslessly: every message of every version, its compactions and checkpoints,
// the summary and window it stood at, its canvas with the history checkpoints point into.
// The fields after `checkpoints` came later: an export without them still imports (its
// messages and versions only).
import { z } from "zod";
import { canvas, canvasEvent } from "./canvas";
import { checkpoint } from "./checkpoints";
import { compaction } from "./context";
import { fileInfo } from "./files";
import { memory } from "./memory";
import { message } from "./messages";
import { count, described, named, timestamp, uuidString } from "./meta";
import { project, session } from "./sessions";

export const EXPORT_FORMAT = "threadkeeper-export";
export const EXPORT_VERSION = 1;

const exportedMessage = message.extend({
  model: z.string().nullable().optional(),
  said_at: described(timestamp().nullable().optional(), "When it was said, for history search's dates (an imported message's original time)."),
});

const exportedCompaction = compaction.extend({
  at_turn: count().optional(),
  prev_compaction_id: uuidString().nullable().optional(),
  prev_window_start_turn: count().optional(),
});

const exportedCheckpoint = checkpoint.extend({
  window_start_turn: count().optional(),
  summary_tokens: count().optional(),
  summary_through_turn: count().optional(),
  canvas_version: described(count().nullable().optional(), "The canvas event (an id in `canvas_events`) the checkpoint's canvas ends at."),
});

const exportedProject = project.pick({ id: true, name: true, created_at: true });

const exportedCanvasEvent = z.object({
  id: count(),
  at_seq: count(),
  source: z.enum(["claude", "user", "restore"]),
  tool_use_id: z.string().nullable(),
  payload: canvasEvent,
});

export const sessionExport = named(
  "SessionExport",
  z.object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: timestamp(),
    session,
    system_prompt: z.string(),
    messages: described(z.array(exportedMessage), "Every message, every version (edits and regenerations name what they replace), oldest first."),
    compactions: described(z.array(exportedCompaction), "Oldest first; `status` says which still applies."),
    checkpoints: described(z.array(exportedCheckpoint), "Newest first."),
    instructions: described(z.string().optional(), "The custom instructions the session carries."),
    window: described(
      z
        .object({
          window_start_turn: count(),
          summary_id: uuidString().nullable(),
          cleared_through_seq: count(),
        })
        .optional(),
      "Where Claude's view begins, and the compaction whose summary stands in for the turns before it.",
    ),
    memory_context: described(
      z.object({ text: z.string().nullable(), tokens: count(), loaded_at: timestamp().nullable() }).optional(),
      "The memories loaded into the session's system prompt at its first message, as sent.",
    ),
    canvas: described(canvas.optional(), "The canvas now."),
    canvas_events: described(z.array(exportedCanvasEvent).optional(), "The canvas's history, oldest first: what checkpoints' canvases are read from."),
    project: described(
      exportedProject.nullable().optional(),
      "The project the session is in: an import puts it in the importing account's project of that name, made if there is none.",
    ),
  }),
  "One session, whole: Threadkeeper imports it back as it was.",
);

/**
 * The whole-account ZIP's `files.json`: each file's entry (its bytes) and the entry of its text
 * by page, both written after this list. Read by the import only from a ZIP that holds it.
 */
export const filesExport = z.object({
  format: z.literal(EXPORT_FORMAT).optional(),
  files: z.array(fileInfo.extend({ entry: z.string().optional(), pages_entry: z.string().optional() })),
});
export const filePagesExport = z.object({ pages: z.array(z.string()) });

/** The whole-account ZIP's `projects.json`, first in it: every project, those with no session too; memories name them by id. */
export const projectsExport = z.object({ format: z.literal(EXPORT_FORMAT), projects: z.array(exportedProject) });

/** The whole-account ZIP's `memories.json`: summaries and facts, sessions named by their exported ids. */
export const memoriesExport = z.object({ format: z.literal(EXPORT_FORMAT).optional(), memories: z.array(memory) });

export const exportQuery = z.object({ format: z.enum(["json", "md"]).default("json") }).strict();

export type SessionExportJson = z.infer<typeof sessionExport>;
export type ExportedCanvasEventJson = z.infer<typeof exportedCanvasEvent>;
export type FilesExportJson = z.infer<typeof filesExport>;
export type MemoriesExportJson = z.infer<typeof memoriesExport>;
export type ProjectsExportJson = z.infer<typeof projectsExport>;
