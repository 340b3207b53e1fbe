// Sessions (/api/session): list, create, read, patch and delete them; the picker's recent
// list, resume and crash recovery.
import type { RecoveryJson, SessionDetailJson, SessionJson, SessionSummaryJson } from "@/lib/contract";
import type { z } from "zod";
import type { patchSessionSchema } from "@/lib/contract/requests";
import { json, send, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

export async function listSessions(): Promise<SessionJson[]> {
  return (await json<{ sessions: SessionJson[] }>("/api/session")).sessions;
}

export async function createSession(input: { title?: string; model?: string } = {}): Promise<SessionJson> {
  return (await json<{ session: SessionJson }>("/api/session", withBody("POST", input))).session;
}

export async function getSession(id: string): Promise<SessionJson> {
  return (await json<{ session: SessionJson }>(`/api/session/${enc(id)}`)).session;
}

/** GET /api/session/{id}: the session with its checkpoints (newest first) and fork relations. */
export async function sessionDetail(id: string): Promise<SessionDetailJson> {
  return json<SessionDetailJson>(`/api/session/${enc(id)}`);
}

export interface RecentQuery {
  q?: string;
  project_id?: string;
  from?: string;
  to?: string;
  limit?: number;
}

export async function recentSessions(query: RecentQuery = {}): Promise<SessionSummaryJson[]> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") q.set(k, String(v));
  const qs = q.toString();
  return (await json<{ sessions: SessionSummaryJson[] }>(`/api/session/recent${qs ? `?${qs}` : ""}`)).sessions;
}

export async function resumeSession(id: string): Promise<{ session: SessionJson }> {
  return json<{ session: SessionJson }>(`/api/session/${enc(id)}/resume`, { method: "POST" });
}

export async function recover(body: { dismiss_session_id?: string } = {}): Promise<RecoveryJson> {
  return json<RecoveryJson>("/api/session/recover", withBody("POST", body));
}

/** What PATCH /api/session/{id} accepts: its schema's type (a type-only import, nothing of the server is bundled). */
export type SessionPatch = z.input<typeof patchSessionSchema>;

export async function patchSession(id: string, patch: SessionPatch): Promise<SessionJson> {
  return (await json<{ session: SessionJson }>(`/api/session/${enc(id)}`, withBody("PATCH", patch))).session;
}

export async function deleteSession(id: string): Promise<void> {
  await send(`/api/session/${enc(id)}`, { method: "DELETE" });
}
