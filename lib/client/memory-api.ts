// Browser-side client for cross-session memory: what a session loaded, search, pin, drop,
// save by hand and archive. Failures are ApiErrors like the rest of the client.
import type { ApiErrorJson, LoadedMemoryJson, MemoryHitJson, MemoryJson } from "@/lib/api/types";
import { ApiError } from "@/lib/client/api";

async function request(path: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: { Accept: "application/json", ...init?.headers } });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Could not reach the server. Check that it is running and retry.");
  }
  if (res.ok) return res;
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy or crash page): the status is all there is.
  }
  const error = (body as Partial<ApiErrorJson> | null)?.error;
  if (error && typeof error.message === "string") {
    throw new ApiError(res.status, error.code ?? "error", error.message, error.details);
  }
  throw new ApiError(res.status, "http_error", `Request failed (${res.status} ${res.statusText})`.trim());
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await request(path, init)).json()) as T;
}

function withBody(method: string, body: unknown, signal?: AbortSignal): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
}

const enc = encodeURIComponent;

export interface SessionMemoriesJson {
  /** Saved from this session. */
  memories: MemoryJson[];
  /** Loaded into this session at its first message. */
  loaded: LoadedMemoryJson[];
}

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

export async function setPinned(memoryId: string, pinned: boolean): Promise<MemoryJson> {
  return (await json<{ memory: MemoryJson }>(`/api/memory/${enc(memoryId)}`, withBody("PATCH", { pinned }))).memory;
}

export async function deleteMemory(memoryId: string): Promise<void> {
  await request(`/api/memory/${enc(memoryId)}`, { method: "DELETE" });
}

export interface SearchRequest {
  query: string;
  project_id?: string;
  tags?: string[];
  from?: string;
  to?: string;
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
