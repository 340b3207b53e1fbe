// What was typed and not yet sent, per session: kept in this browser's localStorage at every
// keystroke (a reload or a crash loses nothing) and, a moment later, on the server (another
// device finds it). A chat not yet created has a draft of its own under NEW_DRAFT; when typing
// there creates the session (a file attached), the draft moves to it. Whichever copy was saved
// last wins when a session is opened.
import type { DraftJson } from "@/lib/contract";
import * as prefsApi from "@/lib/client/api/preferences";

export const NEW_DRAFT = "new";
const PREFIX = "threadkeeper.draft.";
/** How long typing must pause before the server is told. */
export const SERVER_SAVE_MS = 800;

export interface LocalDraft {
  text: string;
  /** Large pastes waiting as chips. */
  pastes: string[];
  attachments: DraftJson["attachments"];
  /** Milliseconds since the epoch. */
  savedAt: number;
}

export const isEmpty = (d: Pick<LocalDraft, "text" | "pastes" | "attachments">) => d.text === "" && d.pastes.length === 0 && d.attachments.length === 0;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage turned off (a private window's policy): drafts live on the server only.
    return null;
  }
}

export function readLocal(key: string): LocalDraft | null {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<LocalDraft>;
    if (typeof d.text !== "string" || typeof d.savedAt !== "number") return null;
    return { text: d.text, pastes: Array.isArray(d.pastes) ? d.pastes.filter((p) => typeof p === "string") : [], attachments: Array.isArray(d.attachments) ? d.attachments : [], savedAt: d.savedAt };
  } catch {
    return null;
  }
}

function writeLocal(key: string, d: LocalDraft): void {
  try {
    if (isEmpty(d)) storage()?.removeItem(PREFIX + key);
    else storage()?.setItem(PREFIX + key, JSON.stringify(d));
  } catch {
    // Quota exceeded: the server copy still follows.
  }
}

/** The server's copy wins only when it was saved after this browser's. */
export function newerOf(local: LocalDraft | null, server: DraftJson): LocalDraft | null {
  const serverAt = server.updated_at ? Date.parse(server.updated_at) : 0;
  if (serverAt > (local?.savedAt ?? 0)) return { text: server.text, pastes: [], attachments: server.attachments, savedAt: serverAt };
  return local;
}

/** What the server keeps: large pastes joined into the text as they would be sent. */
type ServerDraft = Pick<DraftJson, "text" | "attachments">;
const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; draft: ServerDraft }>();

/** Browsers send a keepalive request of up to 64 KB even as the page goes (a reload, a closed tab). */
const KEEPALIVE_BYTES = 60_000;

function sendToServer(sessionId: string, draft: ServerDraft): void {
  const keepalive = draft.text.length * 3 + 2_000 < KEEPALIVE_BYTES;
  void prefsApi.putDraft(sessionId, draft, keepalive).catch(() => {
    // Offline or the session is gone: this browser's copy stands; the next keystroke tries again.
  });
}

/** Saves a draft now in this browser, and on the server once typing pauses. */
export function saveDraft(key: string, d: Omit<LocalDraft, "savedAt">, serverText: string): void {
  writeLocal(key, { ...d, savedAt: Date.now() });
  if (key === NEW_DRAFT) return;
  const draft = { text: serverText, attachments: d.attachments };
  clearTimeout(pending.get(key)?.timer);
  pending.set(key, { draft, timer: setTimeout(() => flushDraft(key), SERVER_SAVE_MS) });
}

/** Sends a save still waiting for its pause (the session is being left, or the page). */
export function flushDraft(key: string): void {
  const p = pending.get(key);
  if (!p) return;
  clearTimeout(p.timer);
  pending.delete(key);
  sendToServer(key, p.draft);
}

export function flushAllDrafts(): void {
  for (const key of [...pending.keys()]) flushDraft(key);
}

/** The message was sent: its draft goes, here and on the server. */
export function clearDraft(key: string): void {
  clearTimeout(pending.get(key)?.timer);
  pending.delete(key);
  storage()?.removeItem(PREFIX + key);
  if (key !== NEW_DRAFT) sendToServer(key, { text: "", attachments: [] });
}

/** The new chat just became this session (a file attached before the first send): its draft follows. */
export function carryNewDraft(sessionId: string): void {
  const d = readLocal(NEW_DRAFT);
  if (!d) return;
  storage()?.removeItem(PREFIX + NEW_DRAFT);
  writeLocal(sessionId, d);
}

/** A deleted session's draft goes with it. */
export function forgetDraft(sessionId: string): void {
  clearTimeout(pending.get(sessionId)?.timer);
  pending.delete(sessionId);
  storage()?.removeItem(PREFIX + sessionId);
}

/**
 * Signing out: what waits for the server is sent (the user finds it on their next sign-in), and
 * this browser keeps none of it, so the next person here never sees it in their new chat.
 */
export function leaveDrafts(): void {
  flushAllDrafts();
  const store = storage();
  if (!store) return;
  const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k?.startsWith(PREFIX) ?? false);
  for (const k of keys) store.removeItem(k);
}
