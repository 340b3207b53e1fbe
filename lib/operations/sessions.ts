import "server-only";
import { releaseSessionFiles } from "@/lib/db/files";
import { removeContent } from "./files";
import { refreshCanvasTokens } from "./canvas";
import { z } from "zod";
import { settingsSchema } from "@/lib/contract/settings";
import { audit } from "@/lib/audit/record";
import type { ContextSettings, MessagesPageJson, SessionDetailJson, SessionJson, SessionSummaryJson, SettingsJson } from "@/lib/contract";
import { checkpointJson, checkpointRef, listCheckpoints } from "@/lib/db/checkpoints";
import { getProject } from "@/lib/db/projects";
import { recentSessionSummaries } from "@/lib/db/session-picker";
import { resolveSettings } from "@/lib/context/settings";
import { withUser, type Tx } from "@/lib/db";
import { getTemplate } from "@/lib/db/templates";
import { badRequest } from "@/lib/errors";
import { isPreset } from "@/lib/context/compaction/templates";
import { eventSeq } from "@/lib/db/live";
import { listMessages, messageJson } from "@/lib/db/messages";
import { handOverToForks } from "@/lib/db/forks";
import { deleteSession, forksOf, getSession, insertSession, setSystemPrompt, listSessions, patchSession, sessionJson, sessionTitle, updateSessionSettings } from "@/lib/db/sessions";
import { getInstructions, getUserSettings, putUserSettings } from "@/lib/db/settings";
import { sessionSystemText } from "@/lib/context/instructions";
import { DEFAULT_SYSTEM_PROMPT, env } from "@/lib/env";
import { retiredReason } from "@/lib/models";
import { estimateSystemTokens } from "@/lib/tokens/tokenizer";
import { contextStatus, defaultModelId, sessionContext, windowJson } from "./session-context";
import { createSessionSchema, patchSessionSchema, recentQuery } from "@/lib/contract/requests";

/**
 * `systemPrompt`: a drop-in caller's own, instead of the deployment's; without it the session
 * carries the account's custom instructions too (a caller's `system` is the whole of its prompt).
 */
export async function createSession(userId: string, input: z.infer<typeof createSessionSchema>, systemPrompt?: string): Promise<SessionJson> {
  return withUser(userId, (tx) => createSessionIn(tx, userId, input, systemPrompt));
}

/** createSession within a transaction of the caller's. */
export async function createSessionIn(tx: Tx, userId: string, input: z.infer<typeof createSessionSchema>, systemPrompt?: string): Promise<SessionJson> {
  const user = await getUserSettings(tx, userId);
  const prompt = systemPrompt ?? defaultSystemPrompt();
  const instructions = systemPrompt === undefined ? await getInstructions(tx, userId) : "";
  if (input.model) refuseRetired(input.model);
  const row = await insertSession(tx, userId, {
    title: input.title ?? null,
    // A saved default that has since retired gives way to the deployment's.
    model: input.model ?? (user.model && !retiredReason(user.model) ? user.model : defaultModelId()),
    settings: input.settings ?? {},
    systemPrompt: prompt,
    instructions,
    systemTokens: estimateSystemTokens(sessionSystemText(prompt, instructions)),
  });
  await audit(tx, userId, { action: "session.created", target: { type: "session", id: row.id }, metadata: { model: row.model } });
  return sessionJson(row);
}

export function defaultSystemPrompt(): string {
  return env().THREADKEEPER_SYSTEM_PROMPT ?? DEFAULT_SYSTEM_PROMPT;
}

/** A drop-in caller's `system` becomes the session's system prompt (the caller found it differs). */
export async function useSystemPrompt(userId: string, sessionId: string, text: string): Promise<void> {
  await withUser(userId, (tx) => setSystemPrompt(tx, userId, sessionId, text, estimateSystemTokens(text)));
}

export async function recentSessions(userId: string, limit: number): Promise<SessionJson[]> {
  return withUser(userId, async (tx) => (await listSessions(tx, userId, limit)).map(sessionJson));
}

export async function messagesPage(
  userId: string,
  sessionId: string,
  beforeSeq: number | undefined,
  limit: number,
): Promise<MessagesPageJson> {
  return withUser(userId, async (tx) => {
    // Before the messages: a change committed in between is heard again, never missed.
    const eventSeqNow = (await eventSeq(tx, userId, sessionId)) ?? 0;
    const session = await getSession(tx, userId, sessionId);
    const window = await windowJson(tx, session);
    const pinned = new Set(window.pinned_turn_seqs);
    const { rows, hasMore } = await listMessages(tx, userId, sessionId, beforeSeq, limit);
    return {
      messages: rows.map((r) => messageJson(r, r.turn_seq >= window.cutoff_turn_seq || pinned.has(r.turn_seq))),
      has_more: hasMore,
      window,
      event_seq: eventSeqNow,
    };
  });
}

export async function getStatus(userId: string, sessionId: string) {
  return withUser(userId, async (tx) => contextStatus(await sessionContext(tx, userId, sessionId)));
}

export async function getSettings(userId: string, sessionId: string | undefined): Promise<SettingsJson> {
  return withUser(userId, async (tx) => {
    const user = await getUserSettings(tx, userId);
    if (!sessionId) return settingsJson("user", null, user, resolveSettings(defaultModelId(), user, {}));
    const session = await getSession(tx, userId, sessionId);
    const stored = { ...session.settings, model: session.model };
    return settingsJson("session", session.id, stored, resolveSettings(defaultModelId(), user, stored));
  });
}

export async function putSettings(
  userId: string,
  sessionId: string | undefined,
  patch: z.infer<typeof settingsSchema>,
): Promise<SettingsJson> {
  await withUser(userId, async (tx) => {
    const user = await getUserSettings(tx, userId);
    if (!sessionId) {
      for (const key of ["model", "summary_model"] as const) if (patch[key] && patch[key] !== user[key]) refuseRetired(patch[key]);
      const next = { ...user, ...patch };
      await checkSettings(tx, userId, resolveSettings(defaultModelId(), next, {}));
      await putUserSettings(tx, userId, next);
      await audit(tx, userId, { action: "settings.updated", target: { type: "user_settings", id: userId }, metadata: { changed: patch } });
      return;
    }
    const session = await getSession(tx, userId, sessionId, true);
    const { model, ...rest } = patch;
    // A session keeps the model it has, retired or not; it cannot move to a retired one.
    if (model && model !== session.model) refuseRetired(model);
    if (rest.summary_model && rest.summary_model !== session.settings.summary_model) refuseRetired(rest.summary_model);
    const next = { ...session.settings, ...rest };
    await checkSettings(tx, userId, resolveSettings(defaultModelId(), user, { ...next, model: model ?? session.model }));
    await refreshCanvasTokens(tx, userId, await updateSessionSettings(tx, userId, sessionId, { settings: next, model: model ?? session.model }));
    await audit(tx, userId, { action: "settings.updated", target: { type: "session", id: sessionId }, metadata: { changed: patch } });
  });
  return getSettings(userId, sessionId);
}

function refuseRetired(model: string): void {
  const why = retiredReason(model);
  if (why) throw badRequest(why, { model, code: "model_retired" });
}

/** Rules that span several settings, checked on the merged result. */
async function checkSettings(tx: Tx, userId: string, s: ContextSettings): Promise<void> {
  if (s.compaction_target >= s.compaction_threshold) {
    throw badRequest("Invalid 'compaction_target': must be below compaction_threshold", {
      compaction_target: s.compaction_target,
      compaction_threshold: s.compaction_threshold,
    });
  }
  if (!isPreset(s.compaction_template) && !(await getTemplate(tx, userId, s.compaction_template))) {
    throw badRequest("Invalid 'compaction_template': not a preset or one of your templates", {
      compaction_template: s.compaction_template,
    });
  }
}

function settingsJson(
  scope: SettingsJson["scope"],
  sessionId: string | null,
  settings: Partial<ContextSettings>,
  effective: ContextSettings,
): SettingsJson {
  return { scope, session_id: sessionId, settings, effective };
}

export async function pickerSessions(userId: string, q: z.infer<typeof recentQuery>): Promise<SessionSummaryJson[]> {
  return withUser(userId, (tx) =>
    recentSessionSummaries(tx, userId, { q: q.q, projectId: q.project_id, from: q.from, to: q.to, limit: q.limit }),
  );
}

/** A session with its checkpoints (newest first) and its fork relations. */
export async function sessionDetail(userId: string, id: string): Promise<SessionDetailJson> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, id);
    const parent = session.parent_session_id ? await sessionTitle(tx, userId, session.parent_session_id) : null;
    const forkedFrom = session.forked_from_checkpoint_id ? await checkpointRef(tx, userId, session.forked_from_checkpoint_id) : null;
    return {
      session: sessionJson(session),
      checkpoints: (await listCheckpoints(tx, userId, id)).map(checkpointJson),
      parent,
      forked_from: forkedFrom && { id: forkedFrom.id, label: forkedFrom.label, created_at: forkedFrom.created_at.toISOString() },
      forks: (await forksOf(tx, userId, id)).map((f) => ({ id: f.id, title: f.title, forked_from_checkpoint_id: f.forked_from_checkpoint_id })),
    };
  });
}

export async function updateSession(userId: string, id: string, patch: z.infer<typeof patchSessionSchema>): Promise<SessionJson> {
  return withUser(userId, async (tx) => {
    if (patch.project_id) await getProject(tx, userId, patch.project_id);
    return sessionJson(await patchSession(tx, userId, id, { title: patch.title, projectId: patch.project_id, pinned: patch.pinned, archived: patch.archived }));
  });
}

/** Deletes a session with its messages, compactions and checkpoints. */
export async function removeSession(userId: string, id: string): Promise<void> {
  const orphans = await withUser(userId, async (tx) => {
    await handOverToForks(tx, userId, id);
    const digests = await releaseSessionFiles(tx, userId, id);
    await deleteSession(tx, userId, id);
    await audit(tx, userId, { action: "session.deleted", target: { type: "session", id } });
    return digests;
  });
  await removeContent(userId, orphans);
}
