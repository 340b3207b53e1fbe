// The context window (/api/context): its status, settings, protected messages, compaction
// (and its history and undo) and the compaction templates.
import type {
  CompactionJson,
  CompactionOutcomeJson,
  ContextSettings,
  ContextStatusJson,
  MessageJson,
  SettingsJson,
  TemplateJson,
} from "@/lib/contract";
import type { z } from "zod";
import type { compactSchema } from "@/lib/contract/requests";
import { json, send, withBody } from "@/lib/client/api/http";

const enc = encodeURIComponent;

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

/** What POST /api/context/compact accepts besides the session: its schema's type (a type-only import). */
export type CompactRequest = Omit<z.input<typeof compactSchema>, "session_id">;

export async function compact(sessionId: string, req: CompactRequest = {}): Promise<CompactionOutcomeJson> {
  return json<CompactionOutcomeJson>("/api/context/compact", withBody("POST", { session_id: sessionId, ...req }));
}

/** The session's compactions, oldest first, reverted ones included. */
export async function compactionHistory(sessionId: string): Promise<CompactionJson[]> {
  return (await json<{ compactions: CompactionJson[] }>(`/api/context/history/${enc(sessionId)}`)).compactions;
}

export async function undoCompaction(compactionId: string): Promise<CompactionOutcomeJson> {
  return json<CompactionOutcomeJson>(`/api/context/compact/${enc(compactionId)}/undo`, { method: "POST" });
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
