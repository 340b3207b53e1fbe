// Browser-side client for cross-session memory: what a session loaded, search, pin, drop,
// save by hand and archive. Failures are ApiErrors like the rest of the client.
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson, MemoryKind, SessionMemoriesJson } from "@/lib/contract";
import { json, send, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

export async function sessionMemories(sessionId: string): Promise<SessionMemoriesJson> {
  return json<SessionMemoriesJson>(`/api/memory/session/${enc(sessionId)}`);
}

/** Drops a loaded memory from the session's context, or brings it back. Answers the session's loaded list. */
export async function setDropped(sessionId: string, memoryId: string, dropped: boolean): Promise<LoadedMemoryJson[]> {
  const res = await json<{ loaded: LoadedMemoryJson[] }>(`/api/session/${enc(sessionId)}/memories/${enc(memoryId)}`, {
    method: dropped ? "DELETE" : "POST",
  });
  return res.loaded;
}

export async function getMemory(memoryId: string): Promise<MemoryJson> {
  return (await json<{ memory: MemoryJson }>(`/api/memory/${enc(memoryId)}`)).memory;
}

export async function setPinned(memoryId: string, pinned: boolean): Promise<MemoryJson> {
  return (await json<{ memory: MemoryJson }>(`/api/memory/${enc(memoryId)}`, withBody("PATCH", { pinned }))).memory;
}

export async function deleteMemory(memoryId: string): Promise<void> {
  await send(`/api/memory/${enc(memoryId)}`, { method: "DELETE" });
}

export interface SearchRequest {
  query: string;
  project_id?: string;
  tags?: string[];
  from?: string;
  to?: string;
  kind?: MemoryKind;
  limit?: number;
}

export async function searchMemories(req: SearchRequest, signal?: AbortSignal): Promise<MemoryHitJson[]> {
  return (await json<{ memories: MemoryHitJson[] }>("/api/memory/search", withBody("POST", req, signal))).memories;
}

export async function saveMemory(input: {
  summary: string;
  session_id?: string;
  project_id?: string;
  tags?: string[];
}): Promise<MemoryJson> {
  return (await json<{ memory: MemoryJson }>("/api/memory/session", withBody("POST", input))).memory;
}

export async function archiveSession(sessionId: string): Promise<MemoryJson> {
  return (await json<{ memory: MemoryJson }>(`/api/session/${enc(sessionId)}/archive`, { method: "POST" })).memory;
}
