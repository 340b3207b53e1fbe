// Browser-side client for the REST API. Every failure becomes an ApiError carrying the
// server's { error: { code, message, details } } so the UI can show the server's words.
import type {
  ApiErrorJson,
  CheckpointJson,
  CompactionJson,
  ContextSettings,
  ContextStatusJson,
  MessageJson,
  MessagesPageJson,
  ProjectJson,
  RecoveryJson,
  SendEvent,
  SessionJson,
  SessionDetailJson,
  SessionSummaryJson,
  SettingsJson,
  TemplateJson,
} from "@/lib/contract";
import type { z } from "zod";
import type { patchSessionSchema } from "@/lib/contract/requests";
import { currentAccount, refreshSession, signInAgainPath } from "@/lib/client/account";
import { readSseFrames, toSendEvent } from "@/lib/client/sse";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toJson(): ApiErrorJson["error"] {
    return { code: this.code, message: this.message, ...(this.details !== undefined ? { details: this.details } : {}) };
  }
}

function isApiErrorJson(body: unknown): body is ApiErrorJson {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && "message" in error;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // A proxy or crash page is not JSON; the status text is the best we have.
  }
  if (isApiErrorJson(body)) {
    return new ApiError(res.status, body.error.code ?? "error", body.error.message, withRetryAfter(body.error.details, res));
  }
  return new ApiError(res.status, "http_error", `Request failed (${res.status} ${res.statusText})`.trim());
}

/** Keeps the Retry-After header with the details, so the UI can say when to try again. */
function withRetryAfter(details: unknown, res: Response): unknown {
  const header = Number(res.headers.get("retry-after"));
  if (!Number.isFinite(header) || header <= 0) return details;
  if (details !== null && typeof details === "object") {
    if ("retry_after_seconds" in details) return details;
    return { ...details, retry_after_seconds: header };
  }
  return details === undefined ? { retry_after_seconds: header } : details;
}

/** Seconds to wait before retrying, from a rate-limit error's details. */
export function retryAfterSeconds(error: ApiErrorJson["error"]): number | null {
  const d = error.details;
  if (d === null || typeof d !== "object" || !("retry_after_seconds" in d)) return null;
  const n = Number((d as { retry_after_seconds: unknown }).retry_after_seconds);
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : null;
}

/**
 * A fetch that never throws a bare TypeError: a dropped connection reads like any other API
 * error. In SaaS mode a 401 refreshes the session once and retries (the access token may
 * have expired while the tab slept); if that fails the user is sent to sign in.
 */
export async function send(path: string, init?: RequestInit): Promise<Response> {
  let res = await fetchOnce(path, init);
  if (res.status === 401 && currentAccount().mode === "supabase") {
    if (await refreshSession()) res = await fetchOnce(path, init);
    const signIn = res.status === 401 ? signInAgainPath() : null;
    if (signIn) window.location.assign(signIn);
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

async function fetchOnce(path: string, init: RequestInit | undefined): Promise<Response> {
  try {
    return await fetch(path, { ...init, headers: requestHeaders(init) });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Could not reach the server. Check that it is running and retry.");
  }
}

function requestHeaders(init: RequestInit | undefined): Headers {
  const headers = new Headers(init?.headers);
  if (!headers.has("accept")) headers.set("Accept", "application/json");
  // Writes are JSON even without a body: the server refuses other browser writes (CSRF).
  const method = (init?.method ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD" && !headers.has("content-type")) headers.set("Content-Type", "application/json");
  return headers;
}

export async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await send(path, init);
  return (await res.json()) as T;
}

export function withBody(method: string, body: unknown, signal?: AbortSignal): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
}

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

export async function listMessages(
  sessionId: string,
  opts: { beforeSeq?: number; limit?: number } = {},
): Promise<MessagesPageJson> {
  const q = new URLSearchParams();
  if (opts.beforeSeq !== undefined) q.set("before_seq", String(opts.beforeSeq));
  if (opts.limit !== undefined) q.set("limit", String(opts.limit));
  const qs = q.toString();
  return json<MessagesPageJson>(`/api/session/${enc(sessionId)}/messages${qs ? `?${qs}` : ""}`);
}

export async function getStatus(sessionId: string): Promise<ContextStatusJson> {
  return json<ContextStatusJson>(`/api/context/status?session_id=${enc(sessionId)}`);
}

/** A session's settings, or with null the account's defaults for new sessions. */
export async function getSettings(sessionId: string | null): Promise<SettingsJson> {
  return json<SettingsJson>(`/api/context/settings${sessionId ? `?session_id=${enc(sessionId)}` : ""}`);
}

export async function putSettings(sessionId: string | null, settings: Partial<ContextSettings>): Promise<SettingsJson> {
  return json<SettingsJson>(`/api/context/settings${sessionId ? `?session_id=${enc(sessionId)}` : ""}`, withBody("PUT", settings));
}

export async function setProtected(sessionId: string, messageId: string, value: boolean): Promise<MessageJson> {
  const res = await json<{ message: MessageJson }>(`/api/context/protect/${enc(messageId)}?session_id=${enc(sessionId)}`, {
    method: value ? "POST" : "DELETE",
  });
  return res.message;
}

/** What POST /api/context/compact accepts besides the session. */
export interface CompactRequest {
  force?: boolean;
  instructions?: string;
  preset?: string;
  template_id?: string;
}

export interface CompactResult {
  compaction: CompactionJson;
  status: ContextStatusJson;
}

export async function compact(sessionId: string, req: CompactRequest = {}): Promise<CompactResult> {
  return json<CompactResult>("/api/context/compact", withBody("POST", { session_id: sessionId, ...req }));
}

/** The session's compactions, oldest first, reverted ones included. */
export async function compactionHistory(sessionId: string): Promise<CompactionJson[]> {
  return (await json<{ compactions: CompactionJson[] }>(`/api/context/history/${enc(sessionId)}`)).compactions;
}

export async function undoCompaction(compactionId: string): Promise<CompactResult> {
  return json<CompactResult>(`/api/context/compact/${enc(compactionId)}/undo`, { method: "POST" });
}

export async function listTemplates(): Promise<TemplateJson[]> {
  return (await json<{ templates: TemplateJson[] }>("/api/context/templates")).templates;
}

export async function createTemplate(input: { name: string; body: string }): Promise<TemplateJson> {
  return (await json<{ template: TemplateJson }>("/api/context/templates", withBody("POST", input))).template;
}

export async function deleteTemplate(id: string): Promise<void> {
  await send(`/api/context/templates/${enc(id)}`, { method: "DELETE" });
}

/** A new message, or `retry` to have the last user message answered again without repeating it. */
export type SendBody = { content: string; edit_of?: string } | { retry: true } | { regenerate: true };

/** Asks the server to stop the reply being written in the session (202; 409 when none is). */
export async function stopReply(sessionId: string): Promise<void> {
  await send(`/api/session/${enc(sessionId)}/stop`, { method: "POST" });
}

/**
 * Posts a message and yields the reply's events as they stream. The idempotency key lets
 * the server drop a duplicate if the same send is delivered twice.
 */
export async function* streamMessage(
  sessionId: string,
  body: SendBody,
  opts: { signal?: AbortSignal; idempotencyKey?: string } = {},
): AsyncGenerator<SendEvent> {
  const res = await send(`/api/session/${enc(sessionId)}/messages`, {
    method: "POST",
    signal: opts.signal,
    headers: {
      "Content-Type": "application/json",
      Accept: "text/event-stream",
      ...(opts.idempotencyKey ? { "Idempotency-Key": opts.idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.body) throw new ApiError(res.status, "empty_stream", "The server answered without a reply stream.");
  for await (const frame of readSseFrames(res.body, opts.signal)) {
    const event = toSendEvent(frame);
    if (event) yield event;
  }
}

/** Error shape for anything thrown, so stores keep one kind of error. */
export function describeError(err: unknown): ApiErrorJson["error"] {
  if (err instanceof ApiError) return err.toJson();
  if (err instanceof Error) return { code: "client_error", message: err.message };
  return { code: "client_error", message: String(err) };
}

// --- Checkpoints, resume, recovery and projects ---

/** GET /api/session/{id}: the session with its checkpoints (newest first) and fork relations. */
export async function sessionDetail(id: string): Promise<SessionDetailJson> {
  return json<SessionDetailJson>(`/api/session/${enc(id)}`);
}

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

export async function listProjects(): Promise<ProjectJson[]> {
  return (await json<{ projects: ProjectJson[] }>("/api/projects")).projects;
}

export async function createProject(name: string): Promise<ProjectJson> {
  return (await json<{ project: ProjectJson }>("/api/projects", withBody("POST", { name }))).project;
}

export async function renameProject(id: string, name: string): Promise<ProjectJson> {
  return (await json<{ project: ProjectJson }>(`/api/projects/${enc(id)}`, withBody("PATCH", { name }))).project;
}

export async function deleteProject(id: string): Promise<void> {
  await send(`/api/projects/${enc(id)}`, { method: "DELETE" });
}
