import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { memoryIdParams, pinSchema, projectIdParams, saveMemorySchema, searchSchema, sessionIdParams } from "../requests";
import { memory, memoryHit, sessionMemories } from "../memory";

const oneMemory = z.object({ memory });

export const memories = group("Memory", "What sessions established, remembered across sessions and searched by meaning and keywords.", {
  saveMemory: {
    method: "POST",
    path: "/api/memory/session",
    summary: "Save a memory by hand",
    body: saveMemorySchema,
    bodyLimit: 256 * 1024,
    responses: { 201: { description: "The memory.", json: oneMemory } },
    errors: [E.notFound],
  },
  sessionMemories: {
    method: "GET",
    path: "/api/memory/session/{session_id}",
    summary: "Memories saved from a session, and those loaded into it",
    params: sessionIdParams,
    responses: {
      200: {
        description: "Its summaries, the memories loaded into it, and its facts (current first; superseded ones kept, marked).",
        json: sessionMemories,
      },
    },
  },
  projectMemories: {
    method: "GET",
    path: "/api/memory/project/{project_id}",
    summary: "A project's memories",
    params: projectIdParams,
    responses: { 200: { description: "The memories.", json: z.object({ memories: z.array(memory) }) } },
  },
  searchMemories: {
    method: "POST",
    path: "/api/memory/search",
    summary: "Hybrid search over your memories",
    description: "Vector similarity and full-text search fused by reciprocal rank, then weighted by recency and pinning. `from` and `to` take ISO 8601 dates; `kind` keeps only summaries or only (current) facts.",
    body: searchSchema,
    responses: { 200: { description: "Best first.", json: z.object({ memories: z.array(memoryHit) }) } },
  },
  getMemory: {
    method: "GET",
    path: "/api/memory/{memory_id}",
    summary: "One memory",
    params: memoryIdParams,
    responses: { 200: { description: "The memory.", json: oneMemory } },
  },
  pinMemory: {
    method: "PATCH",
    path: "/api/memory/{memory_id}",
    summary: "Pin or unpin a memory",
    description: "A pinned memory never expires and ranks higher.",
    params: memoryIdParams,
    body: pinSchema,
    bodyLimit: 1024,
    responses: { 200: { description: "The memory.", json: oneMemory } },
  },
  deleteMemory: {
    method: "DELETE",
    path: "/api/memory/{memory_id}",
    summary: "Delete a memory",
    params: memoryIdParams,
    responses: { 204: { description: "Deleted." } },
  },
});
