import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

export const memoryFact = named(
  "MemoryFact",
  z.object({
    subject: described(z.string(), 'Who it is about: "user", "user\'s sister", a lower-cased name.'),
    attribute: described(z.string().nullable(), 'What it sets ("lives_in", "likes:sushi"); null when no pattern named one.'),
    value: z.string().nullable(),
    from_seq: count(),
    through_seq: count(),
    valid_from: described(timestamp(), "When it was said."),
    valid_until: described(timestamp().nullable(), "When a newer fact replaced it (null while current)."),
    superseded_by: uuidString().nullable(),
    seen_count: described(count(), "How many times it was said; repeats update the stored fact."),
    last_seen_at: timestamp(),
  }),
  "Provenance and validity of a fact memory.",
);

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
    kind: described(z.enum(["summary", "fact"]), "A session's summary, or one atomic fact taken from its turns."),
    fact: memoryFact.nullable(),
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

export const sessionMemories = z.object({
  memories: described(z.array(memory), "Saved from this session."),
  loaded: described(z.array(loadedMemory), "Loaded into this session at its first message."),
  facts: described(z.array(memory), "Facts learned from this session: current ones first, then those replaced since."),
});

export type MemoryFactJson = z.infer<typeof memoryFact>;
export type MemoryJson = z.infer<typeof memory>;
export type MemorySource = MemoryJson["source"];
/** A session's summary, or one atomic fact taken from its turns. */
export type MemoryKind = MemoryJson["kind"];
export type MemoryHitJson = z.infer<typeof memoryHit>;
export type LoadedMemoryJson = z.infer<typeof loadedMemory>;
export type SessionMemoriesJson = z.infer<typeof sessionMemories>;
