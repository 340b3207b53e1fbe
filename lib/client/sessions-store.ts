// The session list and which session is open. The open session also lives in the URL
// (?session=<id>) so a reload or a shared link lands on the same conversation.
import { create } from "zustand";
import type { SessionJson } from "@/lib/api/types";
import * as api from "@/lib/client/api";

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
}

function recency(s: SessionJson): string {
  return s.last_message_at ?? s.updated_at ?? s.created_at;
}

function sortByRecency(list: SessionJson[]): SessionJson[] {
  return [...list].sort((a, b) => recency(b).localeCompare(recency(a)));
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

  async load() {
    try {
      const sessions = await api.listSessions();
      // The server already sorts, but sessions upserted while the list was loading must merge in.
      const byId = new Map(sessions.map((s) => [s.id, s]));
      for (const s of get().sessions) if (!byId.has(s.id)) byId.set(s.id, s);
      set({ sessions: sortByRecency([...byId.values()]), loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: api.describeError(err).message });
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
      const session = await api.createSession();
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
      get().upsert(await api.getSession(id));
    } catch {
      // The list is a convenience; a failed refresh leaves the last known entry in place.
    }
  },
}));

export function useCurrentSession(): SessionJson | null {
  return useSessionsStore((s) => s.sessions.find((x) => x.id === s.currentId) ?? null);
}
