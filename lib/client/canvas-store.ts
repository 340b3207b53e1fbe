// The canvas of the open session: read when the session opens (and on reload or switch),
// changed live by the send stream's `canvas` events, and by the user's removals, clearing and
// choices. Claude's notifications and theme switches are shown here too, never kept.
import { create } from "zustand";
import type { CanvasEffect } from "@/lib/contract";
import type { CanvasJson, CanvasStreamEvent } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as canvasApi from "@/lib/client/api/canvas";
import { applyStream, newer } from "@/lib/client/canvas-sync";

export type CanvasNotification = Extract<CanvasEffect, { kind: "notification" }> & { id: number };
/** Claude's theme for the panel, for this visit; null follows the page. */
export type PanelTheme = "light" | "dark" | null;

interface CanvasStoreState {
  sessionId: string | null;
  /** null until the first read answers (or with no session). */
  canvas: CanvasJson | null;
  loading: boolean;
  loadError: string | null;
  /** Element ids with a removal or a choice in flight. */
  busy: Record<string, boolean>;
  clearing: boolean;
  actionError: string | null;
  notifications: CanvasNotification[];
  theme: PanelTheme;

  open(sessionId: string | null): Promise<void>;
  reload(): Promise<void>;
  /** A `canvas` event of the send stream for `sessionId`. */
  accept(sessionId: string, stream: CanvasStreamEvent): void;
  remove(elementId: string): Promise<void>;
  clear(): Promise<boolean>;
  /** Records the user's answer to a confirmation; true when it was recorded. */
  choose(elementId: string, choice: string): Promise<boolean>;
  dismiss(notificationId: number): void;
  dismissActionError(): void;
}

const SESSION_START = {
  canvas: null,
  loading: false,
  loadError: null,
  busy: {},
  clearing: false,
  actionError: null,
  notifications: [],
  theme: null,
} satisfies Partial<CanvasStoreState>;

/** At most this many toasts at once: a burst of notifications drops the oldest. */
const MAX_NOTIFICATIONS = 4;

export const useCanvasStore = create<CanvasStoreState>()((set, get) => {
  let generation = 0;
  let nextNotification = 1;
  const isOpen = (sessionId: string) => get().sessionId === sessionId;

  async function fetchCanvas(sessionId: string): Promise<void> {
    const mine = ++generation;
    set({ loading: true });
    try {
      const canvas = await canvasApi.getCanvas(sessionId);
      if (mine !== generation || !isOpen(sessionId)) return;
      set((s) => ({ canvas: newer(s.canvas, canvas), loading: false, loadError: null }));
    } catch (err) {
      if (mine === generation && isOpen(sessionId)) set({ loading: false, loadError: describeError(err).message });
    }
  }

  function showEffects(effects: readonly CanvasEffect[]): void {
    for (const effect of effects) {
      if (effect.kind === "theme") {
        set({ theme: effect.theme === "system" ? null : effect.theme });
      } else {
        const n: CanvasNotification = { ...effect, id: nextNotification++ };
        set((s) => ({ notifications: [...s.notifications, n].slice(-MAX_NOTIFICATIONS) }));
      }
    }
  }

  /** A change's answer is the canvas after it; a 404 means the element was already gone. */
  async function change(sessionId: string, run: () => Promise<CanvasJson>, what: string): Promise<boolean> {
    try {
      const canvas = await run();
      if (isOpen(sessionId)) set((s) => ({ canvas: newer(s.canvas, canvas), actionError: null }));
      return true;
    } catch (err) {
      const e = describeError(err);
      if (!isOpen(sessionId)) return false;
      set({ actionError: `Could not ${what}: ${e.message}` });
      if (e.code === "not_found") void fetchCanvas(sessionId);
      return false;
    }
  }

  function setBusy(id: string, value: boolean): void {
    set((s) => {
      const { [id]: _, ...rest } = s.busy;
      return { busy: value ? { ...rest, [id]: true } : rest };
    });
  }

  return {
    ...SESSION_START,
    sessionId: null,

    async open(sessionId) {
      if (sessionId === get().sessionId) return;
      generation++;
      set({ ...SESSION_START, sessionId });
      if (sessionId) await fetchCanvas(sessionId);
    },

    async reload() {
      const { sessionId } = get();
      if (sessionId) await fetchCanvas(sessionId);
    },

    accept(sessionId, stream) {
      if (!isOpen(sessionId)) return;
      showEffects(stream.effects);
      const outcome = applyStream(get().canvas, stream);
      if (outcome.kind === "applied") set({ canvas: outcome.canvas });
      else if (outcome.kind === "refetch") void fetchCanvas(sessionId);
    },

    async remove(elementId) {
      const { sessionId, busy } = get();
      if (!sessionId || busy[elementId]) return;
      setBusy(elementId, true);
      await change(sessionId, () => canvasApi.removeElement(sessionId, elementId), "remove it");
      setBusy(elementId, false);
    },

    async clear() {
      const { sessionId, clearing } = get();
      if (!sessionId || clearing) return false;
      set({ clearing: true });
      const ok = await change(sessionId, () => canvasApi.clearCanvas(sessionId), "clear the canvas");
      if (isOpen(sessionId)) set({ clearing: false });
      return ok;
    },

    async choose(elementId, choice) {
      const { sessionId, busy } = get();
      if (!sessionId || busy[elementId]) return false;
      setBusy(elementId, true);
      const ok = await change(sessionId, () => canvasApi.chooseOption(sessionId, elementId, choice), "record your choice");
      setBusy(elementId, false);
      return ok;
    },

    dismiss(notificationId) {
      set((s) => ({ notifications: s.notifications.filter((n) => n.id !== notificationId) }));
    },

    dismissActionError() {
      set({ actionError: null });
    },
  };
});
