// The session list and which session is open. The open session also lives in the URL
// (?session=<id>) so a reload or a shared link lands on the same conversation.
import { create } from "zustand";
import type { SessionJson } from "@/lib/contract";
import { describeError, send } from "@/lib/client/api/http";
import * as sessionsApi from "@/lib/client/api/sessions";
import { archiveSession } from "@/lib/client/api/memory";
import { forgetDraft } from "@/lib/client/drafts";
import { lastUsed } from "@/lib/client/session-groups";

/** How long a deleted session can be brought back before it is deleted on the server. */
export const UNDO_DELETE_MS = 6000;

interface SessionsState {
  sessions: SessionJson[];
  loaded: boolean;
  error: string | null;
  currentId: string | null;
  creating: boolean;
  load(): Promise<void>;
  /** Opens a session (or none) and mirrors it into the URL. */
  select(id: string | null, opts?: { replace?: boolean }): void;
  create(): Promise<SessionJson>;
  /** Inserts or updates one session, keeping most-recent-first order. */
  upsert(session: SessionJson): void;
  refresh(id: string): Promise<void>;

  /** Rename, pin or unarchive from the list; the server's answer replaces the entry. */
  update(id: string, patch: sessionsApi.SessionPatch): Promise<void>;
  /** Archives into a memory (the session stays, listed under Archived). */
  archive(id: string): Promise<void>;
  /** Hides the session at once and deletes it after UNDO_DELETE_MS unless undone. */
  remove(id: string): void;
  /** The session waiting to be deleted, offered back by the list. */
  pendingDelete: SessionJson | null;
  undoDelete(): void;
}

let deleteTimer: ReturnType<typeof setTimeout> | null = null;

function sortByRecency(list: SessionJson[]): SessionJson[] {
  return [...list].sort((a, b) => lastUsed(b).localeCompare(lastUsed(a)));
}

export function sessionIdFromUrl(): string | null {
  if (typeof window === "undefined") return null;
  return new URLSearchParams(window.location.search).get("session");
}

function writeUrl(id: string | null, replace: boolean): void {
  if (typeof window === "undefined") return;
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("session", id);
  else url.searchParams.delete("session");
  if (url.href === window.location.href) return;
  if (replace) window.history.replaceState(window.history.state, "", url);
  else window.history.pushState(window.history.state, "", url);
}

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  sessions: [],
  loaded: false,
  error: null,
  currentId: null,
  creating: false,
  pendingDelete: null,

  async load() {
    try {
      const sessions = await sessionsApi.listSessions();
      // The server already sorts, but sessions upserted while the list was loading must merge in.
      const byId = new Map(sessions.map((s) => [s.id, s]));
      for (const s of get().sessions) if (!byId.has(s.id)) byId.set(s.id, s);
      set({ sessions: sortByRecency([...byId.values()]), loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: describeError(err).message });
    }
  },

  select(id, opts) {
    if (get().currentId === id) return;
    set({ currentId: id });
    writeUrl(id, opts?.replace ?? false);
  },

  async create() {
    set({ creating: true });
    try {
      const session = await sessionsApi.createSession();
      get().upsert(session);
      get().select(session.id);
      return session;
    } finally {
      set({ creating: false });
    }
  },

  upsert(session) {
    const others = get().sessions.filter((s) => s.id !== session.id);
    set({ sessions: sortByRecency([session, ...others]) });
  },

  async refresh(id) {
    try {
      get().upsert(await sessionsApi.getSession(id));
    } catch {
      // The list is a convenience; a failed refresh leaves the last known entry in place.
    }
  },

  async update(id, patch) {
    try {
      get().upsert(await sessionsApi.patchSession(id, patch));
      set({ error: null });
    } catch (err) {
      set({ error: describeError(err).message });
    }
  },

  async archive(id) {
    try {
      await archiveSession(id);
      await get().refresh(id);
      set({ error: null });
    } catch (err) {
      set({ error: describeError(err).message });
    }
  },

  remove(id) {
    const session = get().sessions.find((s) => s.id === id);
    if (!session) return;
    flushDelete(get, set);
    if (get().currentId === id) get().select(null);
    set({ sessions: get().sessions.filter((s) => s.id !== id), pendingDelete: session });
    deleteTimer = setTimeout(() => flushDelete(get, set), UNDO_DELETE_MS);
  },

  undoDelete() {
    const session = get().pendingDelete;
    if (deleteTimer) clearTimeout(deleteTimer);
    deleteTimer = null;
    set({ pendingDelete: null });
    if (session) get().upsert(session);
  },
}));

type Get = () => SessionsState;
type Set = (partial: Partial<SessionsState>) => void;

/** Deletes the pending session on the server now; a failure brings it back with the reason. */
function flushDelete(get: Get, set: Set): void {
  const session = get().pendingDelete;
  if (deleteTimer) clearTimeout(deleteTimer);
  deleteTimer = null;
  if (!session) return;
  set({ pendingDelete: null });
  sessionsApi.deleteSession(session.id).then(
    () => forgetDraft(session.id),
    (err: unknown) => {
      get().upsert(session);
      set({ error: describeError(err).message });
    },
  );
}

// A page closed during the undo window still deletes what the user deleted.
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => {
    const session = useSessionsStore.getState().pendingDelete;
    if (session) void send(`/api/session/${encodeURIComponent(session.id)}`, { method: "DELETE", keepalive: true }).catch(() => undefined);
  });
}

export function useCurrentSession(): SessionJson | null {
  return useSessionsStore((s) => s.sessions.find((x) => x.id === s.currentId) ?? null);
}
