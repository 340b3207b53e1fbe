// Checkpoints (/api/checkpoint): save one, fork a new session from one, delete one.
import type { CheckpointJson, SessionJson } from "@/lib/contract";
import { json, send, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

export async function saveCheckpoint(sessionId: string, label?: string): Promise<CheckpointJson> {
  const body = label ? { session_id: sessionId, label } : { session_id: sessionId };
  return (await json<{ checkpoint: CheckpointJson }>("/api/checkpoint/save", withBody("POST", body))).checkpoint;
}

/** Forks a new session from the checkpoint; the original is left as it is. */
export async function restoreCheckpoint(id: string): Promise<{ session: SessionJson; checkpoint: CheckpointJson }> {
  return json<{ session: SessionJson; checkpoint: CheckpointJson }>(`/api/checkpoint/${enc(id)}/restore`, { method: "POST" });
}

export async function deleteCheckpoint(id: string): Promise<void> {
  await send(`/api/checkpoint/${enc(id)}`, { method: "DELETE" });
}
