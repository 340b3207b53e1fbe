// Context status of the open session: what the token bar draws.
import { create } from "zustand";
import type { ContextStatusJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as contextApi from "@/lib/client/api/context";

interface StatusState {
  /** The session the bar is for; answers for any other session are stale and dropped. */
  sessionId: string | null;
  status: ContextStatusJson | null;
  error: string | null;
  track(sessionId: string | null): void;
  load(sessionId: string): Promise<void>;
  accept(status: ContextStatusJson): void;
}

export const useStatusStore = create<StatusState>()((set, get) => ({
  sessionId: null,
  status: null,
  error: null,

  track(sessionId) {
    if (get().sessionId === sessionId) return;
    set({ sessionId, status: null, error: null });
  },

  async load(sessionId) {
    try {
      const status = await contextApi.getStatus(sessionId);
      if (get().sessionId === sessionId) set({ status, error: null });
    } catch (err) {
      if (get().sessionId === sessionId) set({ error: describeError(err).message });
    }
  },

  accept(status) {
    if (status.session_id === get().sessionId) set({ status, error: null });
  },
}));
