import { z } from "zod";
import { memoryIdParams, pinSchema, projectIdParams, sessionIdParams } from "@/lib/contract/requests";
import { saveMemorySchema, searchSchema } from "@/lib/operations/memory";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { loadedMemory, memory, memoryHit } from "@/lib/contract/memory";

const oneMemory = z.object({ memory });

export const memories: OperationGroup = {
  tag: "Memory",
  description: "What sessions established, remembered across sessions and searched by meaning and keywords.",
  operations: [
    {
      method: "POST",
      path: "/api/memory/session",
      operationId: "saveMemory",
      summary: "Save a memory by hand",
      body: saveMemorySchema,
      responses: { 201: { description: "The memory.", json: oneMemory } },
      errors: [E.notFound],
    },
    {
      method: "GET",
      path: "/api/memory/session/{session_id}",
      operationId: "sessionMemories",
      summary: "Memories saved from a session, and those loaded into it",
      params: sessionIdParams,
      responses: {
        200: {
          description: "Its summaries, the memories loaded into it, and its facts (current first; superseded ones kept, marked).",
          json: z.object({ memories: z.array(memory), loaded: z.array(loadedMemory), facts: z.array(memory) }),
        },
      },
    },
    {
      method: "GET",
      path: "/api/memory/project/{project_id}",
      operationId: "projectMemories",
      summary: "A project's memories",
      params: projectIdParams,
      responses: { 200: { description: "The memories.", json: z.object({ memories: z.array(memory) }) } },
    },
    {
      method: "POST",
      path: "/api/memory/search",
      operationId: "searchMemories",
      summary: "Hybrid search over your memories",
      description: "Vector similarity and full-text search fused by reciprocal rank, then weighted by recency and pinning. `from` and `to` take ISO 8601 dates; `kind` keeps only summaries or only (current) facts.",
      body: searchSchema,
      responses: { 200: { description: "Best first.", json: z.object({ memories: z.array(memoryHit) }) } },
    },
    {
      method: "GET",
      path: "/api/memory/{memory_id}",
      operationId: "getMemory",
      summary: "One memory",
      params: memoryIdParams,
      responses: { 200: { description: "The memory.", json: oneMemory } },
    },
    {
      method: "PATCH",
      path: "/api/memory/{memory_id}",
      operationId: "pinMemory",
      summary: "Pin or unpin a memory",
      description: "A pinned memory never expires and ranks higher.",
      params: memoryIdParams,
      body: pinSchema,
      responses: { 200: { description: "The memory.", json: oneMemory } },
    },
    {
      method: "DELETE",
      path: "/api/memory/{memory_id}",
      operationId: "deleteMemory",
      summary: "Delete a memory",
      params: memoryIdParams,
      responses: { 204: { description: "Deleted." } },
    },
  ],
};
