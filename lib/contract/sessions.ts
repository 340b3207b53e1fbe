import { z } from "zod";
import { settingsOverrides } from "./settings";
import { count, described, named, timestamp, uuidString } from "./meta";
import { checkpoint } from "./checkpoints";
import { message } from "./messages";

export const session = named(
  "Session",
  z.object({
    id: uuidString(),
    title: z.string(),
    model: z.string(),
    settings: settingsOverrides,
    created_at: timestamp(),
    updated_at: timestamp(),
    last_message_at: timestamp().nullable(),
    message_count: count(),
    project_id: uuidString().nullable(),
    parent_session_id: described(uuidString().nullable(), "Set on a session forked from a checkpoint: where it came from."),
    forked_from_checkpoint_id: uuidString().nullable(),
    title_source: described(z.string(), "How the title was made: default, heuristic, llm or user."),
    pinned: described(z.boolean(), "Pinned to the top of the session list."),
    archived: described(z.boolean(), "Archived into a memory (POST /api/session/{id}/archive); listed apart until unarchived."),
  }),
);

export const sessionSummary = named(
  "SessionSummary",
  session.extend({
    project_name: z.string().nullable(),
    last_message_preview: z.string().nullable(),
    checkpoint_count: count(),
    current_tokens: described(count(), "The one token figure the token bar and status show."),
  }),
  "A row of the session picker.",
);

export const sessionDetail = named(
  "SessionDetail",
  z.object({
    session,
    checkpoints: described(z.array(checkpoint), "Newest first."),
    parent: z.object({ id: uuidString(), title: z.string() }).nullable(),
    forked_from: z.object({ id: uuidString(), label: z.string().nullable(), created_at: timestamp() }).nullable(),
    forks: z.array(z.object({ id: uuidString(), title: z.string(), forked_from_checkpoint_id: uuidString().nullable() })),
  }),
  "A session with its checkpoints and its fork relations.",
);

export const project = named(
  "Project",
  z.object({ id: uuidString(), name: z.string(), created_at: timestamp(), session_count: count() }),
);

export const recovery = named(
  "Recovery",
  z.object({
    needed: z.boolean(),
    session: sessionSummary.nullable(),
    interrupted_message: message.nullable(),
    checkpoint: checkpoint.nullable(),
  }),
  "After a crash: the reply that was cut off, and where to resume from.",
);

export type SessionJson = z.infer<typeof session>;
export type SessionSummaryJson = z.infer<typeof sessionSummary>;
export type SessionDetailJson = z.infer<typeof sessionDetail>;
export type ProjectJson = z.infer<typeof project>;
export type RecoveryJson = z.infer<typeof recovery>;
