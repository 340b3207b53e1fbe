// The open session's checkpoint timeline and fork relations, and whether the timeline
// panel is showing. Reloaded when the session changes, when a checkpoint is saved
// (by /save-progress or by the server during a reply) and after a delete.
import { create } from "zustand";
import type { CheckpointJson, SessionDetailJson } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as checkpointsApi from "@/lib/client/api/checkpoints";
import * as sessionsApi from "@/lib/client/api/sessions";
import { useSessionsStore } from "@/lib/client/sessions-store";

interface CheckpointsState {
  sessionId: string | null;
  detail: SessionDetailJson | null;
  loading: boolean;
  error: string | null;
  panelOpen: boolean;
  /** A restore or delete in flight, by checkpoint id. */
  busy: Record<string, boolean>;
  setPanelOpen(open: boolean): void;
  /** Loads the timeline of a session (null clears it). */
  load(sessionId: string | null): Promise<void>;
  /** Reloads if the session is the one shown. */
  refresh(sessionId: string): Promise<void>;
  /** Forks a session at the checkpoint and opens the fork. */
  restore(checkpoint: CheckpointJson): Promise<void>;
  remove(checkpoint: CheckpointJson): Promise<void>;
}

export const useCheckpointsStore = create<CheckpointsState>()((set, get) => {
  let generation = 0;
  async function fetchDetail(sessionId: string): Promise<void> {
    const mine = ++generation;
    try {
      const detail = await sessionsApi.sessionDetail(sessionId);
      if (mine !== generation || get().sessionId !== sessionId) return;
      set({ detail, loading: false, error: null });
      useSessionsStore.getState().upsert(detail.session);
    } catch (err) {
      if (mine === generation && get().sessionId === sessionId) set({ loading: false, error: describeError(err).message });
    }
  }

  return {
    sessionId: null,
    detail: null,
    loading: false,
    error: null,
    panelOpen: false,
    busy: {},

    setPanelOpen(open) {
      set({ panelOpen: open });
    },

    async load(sessionId) {
      if (sessionId === get().sessionId && get().detail) return fetchDetail(sessionId!);
      set({ sessionId, detail: null, error: null, loading: sessionId !== null, busy: {} });
      if (sessionId) await fetchDetail(sessionId);
    },

    async refresh(sessionId) {
      if (get().sessionId === sessionId) await fetchDetail(sessionId);
    },

    async restore(checkpoint) {
      if (get().busy[checkpoint.id]) return;
      set((s) => ({ busy: { ...s.busy, [checkpoint.id]: true }, error: null }));
      try {
        const { session } = await checkpointsApi.restoreCheckpoint(checkpoint.id);
        const sessions = useSessionsStore.getState();
        sessions.upsert(session);
        sessions.select(session.id);
      } catch (err) {
        set({ error: `Could not resume from this checkpoint: ${describeError(err).message}` });
      } finally {
        set((s) => {
          const { [checkpoint.id]: _, ...rest } = s.busy;
          return { busy: rest };
        });
      }
    },

    async remove(checkpoint) {
      if (get().busy[checkpoint.id]) return;
      set((s) => ({ busy: { ...s.busy, [checkpoint.id]: true }, error: null }));
      try {
        await checkpointsApi.deleteCheckpoint(checkpoint.id);
        set((s) =>
          s.detail ? { detail: { ...s.detail, checkpoints: s.detail.checkpoints.filter((c) => c.id !== checkpoint.id) } } : {},
        );
      } catch (err) {
        set({ error: `Could not delete the checkpoint: ${describeError(err).message}` });
      } finally {
        set((s) => {
          const { [checkpoint.id]: _, ...rest } = s.busy;
          return { busy: rest };
        });
      }
      await get().refresh(checkpoint.session_id);
    },
  };
});
