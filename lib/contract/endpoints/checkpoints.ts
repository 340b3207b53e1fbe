import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { idParams, recentCheckpointsQuery, saveSchema, sessionIdParams } from "../requests";
import { checkpoint, recentCheckpoint } from "../checkpoints";
import { message } from "../messages";
import { session } from "../sessions";

const checkpointList = z.object({ checkpoints: z.array(checkpoint) });

export const checkpoints = group("Checkpoints", "Pointers into the append-only history: save, list, inspect, fork from, delete.", {
  saveCheckpoint: {
    method: "POST",
    path: "/api/checkpoint/save",
    summary: "Save a checkpoint by hand",
    body: saveSchema,
    responses: { 201: { description: "The checkpoint.", json: z.object({ checkpoint }) } },
    errors: [E.notFound],
  },
  listSessionCheckpoints: {
    method: "GET",
    path: "/api/checkpoint/session/{session_id}",
    summary: "A session's checkpoints",
    params: sessionIdParams,
    responses: { 200: { description: "Newest first.", json: checkpointList } },
  },
  recentCheckpoints: {
    method: "GET",
    path: "/api/checkpoint/recent",
    summary: "Recent checkpoints across your sessions",
    query: recentCheckpointsQuery,
    responses: { 200: { description: "Newest first.", json: z.object({ checkpoints: z.array(recentCheckpoint) }) } },
  },
  getCheckpoint: {
    method: "GET",
    path: "/api/checkpoint/{id}",
    summary: "A checkpoint with the last messages through it",
    params: idParams,
    responses: { 200: { description: "The checkpoint.", json: z.object({ checkpoint, messages: z.array(message) }) } },
  },
  deleteCheckpoint: {
    method: "DELETE",
    path: "/api/checkpoint/{id}",
    summary: "Delete a checkpoint",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
  restoreCheckpoint: {
    method: "POST",
    path: "/api/checkpoint/{id}/restore",
    summary: "Resume from here: fork a new session at the checkpoint",
    description: "The fork's context is exactly the checkpoint's; the original session is untouched.",
    params: idParams,
    responses: { 201: { description: "The fork and the checkpoint it came from.", json: z.object({ session, checkpoint }) } },
  },
});
