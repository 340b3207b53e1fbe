import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { createSessionSchema, idParams, patchSessionSchema, recentQuery, recoverSchema, sessionListQuery, sessionMemoryParams } from "../requests";
import { contextStatus } from "../context";
import { loadedMemory, memory } from "../memory";
import { message } from "../messages";
import { recovery, session, sessionDetail, sessionSummary } from "../sessions";

const oneSession = z.object({ session });

export const sessions = group("Sessions", "Create, list, open, rename, delete, resume and archive sessions.", {
  createSession: {
    method: "POST",
    path: "/api/session",
    summary: "Create a session",
    body: createSessionSchema,
    bodyLimit: 64 * 1024,
    responses: { 201: { description: "The new session.", json: oneSession } },
  },
  listSessions: {
    method: "GET",
    path: "/api/session",
    summary: "Your sessions, most recent first",
    query: sessionListQuery,
    responses: { 200: { description: "The sessions.", json: z.object({ sessions: z.array(session) }) } },
  },
  pickSessions: {
    method: "GET",
    path: "/api/session/recent",
    summary: "The session picker",
    description: "Recent sessions with their last message, project, checkpoint count and tokens. `q` searches titles and messages (full text).",
    query: recentQuery,
    responses: { 200: { description: "Matching sessions.", json: z.object({ sessions: z.array(sessionSummary) }) } },
  },
  getSession: {
    method: "GET",
    path: "/api/session/{id}",
    summary: "One session with its checkpoints, its parent and its forks",
    params: idParams,
    responses: { 200: { description: "The session.", json: sessionDetail } },
  },
  updateSession: {
    method: "PATCH",
    path: "/api/session/{id}",
    summary: "Rename, pin, unarchive, or assign to a project",
    description: "`project_id: null` removes the session from its project; `pinned` keeps it at the top of the list; `archived: false` brings an archived session back (its memory stays).",
    params: idParams,
    body: patchSessionSchema,
    responses: { 200: { description: "The updated session.", json: oneSession } },
  },
  deleteSession: {
    method: "DELETE",
    path: "/api/session/{id}",
    summary: "Delete a session",
    description: "With its messages, compactions and checkpoints. Its forks keep the history they share with it.",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
  resumeSession: {
    method: "POST",
    path: "/api/session/{id}/resume",
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
  recoverAfterCrash: {
    method: "POST",
    path: "/api/session/recover",
    summary: "What to resume after a crash",
    description: "`dismiss_session_id` stops asking about that session's crash.",
    body: recoverSchema,
    bodyLimit: 4 * 1024,
    responses: { 200: { description: "Whether a reply was cut off, and where to resume.", json: recovery } },
    errors: [E.notFound],
  },
  archiveSession: {
    method: "POST",
    path: "/api/session/{id}/archive",
    summary: "Archive a session into a memory",
    description: "Its summary extended by every turn since, verified like a compaction's; the session itself is unchanged.",
    params: idParams,
    responses: { 201: { description: "The memory.", json: z.object({ memory }) } },
    errors: [E.nothingToRemember],
  },
  dropLoadedMemory: {
    method: "DELETE",
    path: "/api/session/{id}/memories/{memory_id}",
    summary: "Drop a loaded memory from the session's context",
    params: sessionMemoryParams,
    responses: { 200: { description: "The session's loaded memories.", json: z.object({ loaded: z.array(loadedMemory) }) } },
  },
  restoreLoadedMemory: {
    method: "POST",
    path: "/api/session/{id}/memories/{memory_id}",
    summary: "Bring a dropped memory back into the session's context",
    params: sessionMemoryParams,
    responses: { 200: { description: "The session's loaded memories.", json: z.object({ loaded: z.array(loadedMemory) }) } },
  },
});
