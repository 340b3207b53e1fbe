import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "../components";

export const memory = named(
  "Memory",
  z.object({
    id: uuidString(),
    project_id: uuidString().nullable(),
    session_id: uuidString().nullable(),
    source: z.enum(["compaction", "archive", "manual"]),
    summary: z.string(),
    key_decisions: z.array(z.string()),
    code_references: z.array(z.string()),
    tags: z.array(z.string()),
    pinned: described(z.boolean(), "Never expires, ranks higher."),
    embedding_model: z.string(),
    created_at: timestamp(),
    expires_at: timestamp().nullable(),
  }),
);

export const memoryHit = named(
  "MemoryHit",
  memory.extend({
    relevance: described(z.number(), "Combined relevance: fused similarity and keyword rank, recency, pinning."),
    vector_rank: described(count().nullable(), "Rank in the vector list (null when absent from it)."),
    text_rank: described(count().nullable(), "Rank in the keyword list (null when absent from it)."),
  }),
);

export const loadedMemory = named(
  "LoadedMemory",
  z.object({ memory, tokens: count(), score: z.number(), dropped: z.boolean() }),
  "A memory loaded into a session's context (dropped: taken out of it again).",
);
