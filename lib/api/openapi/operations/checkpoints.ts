import { z } from "zod";
import { idParams, recentCheckpointsQuery, sessionIdParams } from "@/lib/contract/requests";
import { saveSchema } from "@/lib/operations/checkpoints";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { checkpoint, recentCheckpoint } from "@/lib/contract/checkpoints";
import { message } from "@/lib/contract/messages";
import { session } from "@/lib/contract/sessions";

const checkpointList = z.object({ checkpoints: z.array(checkpoint) });

export const checkpoints: OperationGroup = {
  tag: "Checkpoints",
  description: "Pointers into the append-only history: save, list, inspect, fork from, delete.",
  operations: [
    {
      method: "POST",
      path: "/api/checkpoint/save",
      operationId: "saveCheckpoint",
      summary: "Save a checkpoint by hand",
      body: saveSchema,
      responses: { 201: { description: "The checkpoint.", json: z.object({ checkpoint }) } },
      errors: [E.notFound],
    },
    {
      method: "GET",
      path: "/api/checkpoint/session/{session_id}",
      operationId: "listSessionCheckpoints",
      summary: "A session's checkpoints",
      params: sessionIdParams,
      responses: { 200: { description: "Newest first.", json: checkpointList } },
    },
    {
      method: "GET",
      path: "/api/checkpoint/recent",
      operationId: "recentCheckpoints",
      summary: "Recent checkpoints across your sessions",
      query: recentCheckpointsQuery,
      responses: { 200: { description: "Newest first.", json: z.object({ checkpoints: z.array(recentCheckpoint) }) } },
    },
    {
      method: "GET",
      path: "/api/checkpoint/{id}",
      operationId: "getCheckpoint",
      summary: "A checkpoint with the last messages through it",
      params: idParams,
      responses: { 200: { description: "The checkpoint.", json: z.object({ checkpoint, messages: z.array(message) }) } },
    },
    {
      method: "DELETE",
      path: "/api/checkpoint/{id}",
      operationId: "deleteCheckpoint",
      summary: "Delete a checkpoint",
      params: idParams,
      responses: { 204: { description: "Deleted." } },
    },
    {
      method: "POST",
      path: "/api/checkpoint/{id}/restore",
      operationId: "restoreCheckpoint",
      summary: "Resume from here: fork a new session at the checkpoint",
      description: "The fork's context is exactly the checkpoint's; the original session is untouched.",
      params: idParams,
      responses: { 201: { description: "The fork and the checkpoint it came from.", json: z.object({ session, checkpoint }) } },
    },
  ],
};
