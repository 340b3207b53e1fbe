import { z } from "zod";
import { idParams, sessionListQuery, sessionMemoryParams } from "@/lib/contract/requests";
import { createSessionSchema, patchSessionSchema, recentQuery } from "@/lib/operations/sessions";
import { recoverSchema } from "@/lib/operations/recovery";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { contextStatus } from "@/lib/contract/context";
import { loadedMemory, memory } from "@/lib/contract/memory";
import { message } from "@/lib/contract/messages";
import { recovery, session, sessionDetail, sessionSummary } from "@/lib/contract/sessions";

const oneSession = z.object({ session });

export const sessions: OperationGroup = {
  tag: "Sessions",
  description: "Create, list, open, rename, delete, resume and archive sessions.",
  operations: [
    {
      method: "POST",
      path: "/api/session",
      operationId: "createSession",
      summary: "Create a session",
      body: createSessionSchema,
      responses: { 201: { description: "The new session.", json: oneSession } },
    },
    {
      method: "GET",
      path: "/api/session",
      operationId: "listSessions",
      summary: "Your sessions, most recent first",
      query: sessionListQuery,
      responses: { 200: { description: "The sessions.", json: z.object({ sessions: z.array(session) }) } },
    },
    {
      method: "GET",
      path: "/api/session/recent",
      operationId: "pickSessions",
      summary: "The session picker",
      description: "Recent sessions with their last message, project, checkpoint count and tokens. `q` searches titles and messages (full text).",
      query: recentQuery,
      responses: { 200: { description: "Matching sessions.", json: z.object({ sessions: z.array(sessionSummary) }) } },
    },
    {
      method: "GET",
      path: "/api/session/{id}",
      operationId: "getSession",
      summary: "One session with its checkpoints, its parent and its forks",
      params: idParams,
      responses: { 200: { description: "The session.", json: sessionDetail } },
    },
    {
      method: "PATCH",
      path: "/api/session/{id}",
      operationId: "updateSession",
      summary: "Rename, pin, unarchive, or assign to a project",
      description: "`project_id: null` removes the session from its project; `pinned` keeps it at the top of the list; `archived: false` brings an archived session back (its memory stays).",
      params: idParams,
      body: patchSessionSchema,
      responses: { 200: { description: "The updated session.", json: oneSession } },
    },
    {
      method: "DELETE",
      path: "/api/session/{id}",
      operationId: "deleteSession",
      summary: "Delete a session",
      description: "With its messages, compactions and checkpoints. Its forks keep the history they share with it.",
      params: idParams,
      responses: { 204: { description: "Deleted." } },
    },
    {
      method: "POST",
      path: "/api/session/{id}/resume",
      operationId: "resumeSession",
      summary: "Open a session where it left off",
      description: "When its last reply was cut off, `interrupted_message` is that reply: answer it again with a send of `{ \"retry\": true }`.",
      params: idParams,
      responses: {
        200: {
          description: "The session, its context status and the cut-off reply, if any.",
          json: z.object({ session, status: contextStatus, interrupted_message: message.nullable() }),
        },
      },
    },
    {
      method: "POST",
      path: "/api/session/recover",
      operationId: "recoverAfterCrash",
      summary: "What to resume after a crash",
      description: "`dismiss_session_id` stops asking about that session's crash.",
      body: recoverSchema,
      responses: { 200: { description: "Whether a reply was cut off, and where to resume.", json: recovery } },
      errors: [E.notFound],
    },
    {
      method: "POST",
      path: "/api/session/{id}/archive",
      operationId: "archiveSession",
      summary: "Archive a session into a memory",
      description: "Its summary extended by every turn since, verified like a compaction's; the session itself is unchanged.",
      params: idParams,
      responses: { 201: { description: "The memory.", json: z.object({ memory }) } },
      errors: [E.nothingToRemember],
    },
    {
      method: "DELETE",
      path: "/api/session/{id}/memories/{memory_id}",
      operationId: "dropLoadedMemory",
      summary: "Drop a loaded memory from the session's context",
      params: sessionMemoryParams,
      responses: { 200: { description: "The session's loaded memories.", json: z.object({ loaded: z.array(loadedMemory) }) } },
    },
    {
      method: "POST",
      path: "/api/session/{id}/memories/{memory_id}",
      operationId: "restoreLoadedMemory",
      summary: "Bring a dropped memory back into the session's context",
      params: sessionMemoryParams,
      responses: { 200: { description: "The session's loaded memories.", json: z.object({ loaded: z.array(loadedMemory) }) } },
    },
  ],
};
