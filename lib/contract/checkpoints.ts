import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";
import { role } from "./messages";

export const checkpoint = named(
  "Checkpoint",
  z.object({
    id: uuidString(),
    session_id: uuidString(),
    label: z.string().nullable(),
    name: described(z.string(), "The label, or for an automatic checkpoint what its turn was about (\"Fixed: the upload test\")."),
    trigger: z.enum(["auto", "manual", "pre_compaction"]),
    auto_tags: described(z.array(z.string()), "Why it was saved: code, file, decision, error_fix, task_complete, periodic, pre_compaction."),
    through_seq: described(count(), "The checkpoint covers the session's messages up to this seq."),
    through_turn: count(),
    token_count: count(),
    preview: described(z.array(z.object({ role, text: z.string() })), "The last messages at the checkpoint, for a hover preview."),
    summary_id: described(uuidString().nullable(), "The summary (compaction) active at the checkpoint."),
    created_at: timestamp(),
  }),
  "A pointer into the append-only history, not a copy of it.",
);

export const recentCheckpoint = named("RecentCheckpoint", checkpoint.extend({ session_title: z.string() }));

export type CheckpointJson = z.infer<typeof checkpoint>;
export type CheckpointTrigger = CheckpointJson["trigger"];
export type RecentCheckpointJson = z.infer<typeof recentCheckpoint>;
