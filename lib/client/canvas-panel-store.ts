// Whether the canvas shows. On a wide screen it is a panel beside the chat, open or collapsed
// as the user last left it (remembered in this browser); until they choose, it opens when the
// canvas has something on it (and stays open for that session when its last element goes, so
// the user's × does not make the panel jump away). On a narrow screen it is a full-width sheet opened from the
// header, never reopened by a reload.
import { create } from "zustand";

const KEY = "tk.canvas.panel";
/** The width from which the panel sits beside the chat (Tailwind's `lg`). */
export const WIDE_QUERY = "(min-width: 1024px)";

export type PanelPreference = "open" | "closed" | null;

interface CanvasPanelState {
  preference: PanelPreference;
  sheetOpen: boolean;
  /** The open session's canvas had something on it during this visit. */
  hadContent: boolean;
  noteContent(has: boolean): void;
  /** Another session: whether its canvas ever had content is for it to show. */
  resetForSession(): void;
  /** Reads the remembered preference; after mount, so the server render and hydration agree. */
  hydrate(): void;
  /** The header button: collapses or opens the panel on a wide screen, the sheet on a narrow one. */
  toggle(currentlyShown: boolean): void;
  setSheetOpen(open: boolean): void;
}

function remembered(): PanelPreference {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === "open" || v === "closed" ? v : null;
  } catch {
    return null;
  }
}

function remember(p: Exclude<PanelPreference, null>): void {
  try {
    window.localStorage.setItem(KEY, p);
  } catch {
    // Private modes may refuse storage; the panel still toggles for this visit.
  }
}

/** Whether the wide panel shows, given the preference and whether the canvas has (had) anything. */
export function panelShown(preference: PanelPreference, hasContent: boolean): boolean {
  return preference === null ? hasContent : preference === "open";
}

export const useCanvasPanelStore = create<CanvasPanelState>()((set, get) => ({
  preference: null,
  sheetOpen: false,
  hadContent: false,

  noteContent(has) {
    if (has && !get().hadContent) set({ hadContent: true });
  },

  resetForSession() {
    set({ hadContent: false, sheetOpen: false });
  },

  hydrate() {
    set({ preference: remembered() });
  },

  toggle(currentlyShown) {
    if (!window.matchMedia(WIDE_QUERY).matches) {
      set({ sheetOpen: !get().sheetOpen });
      return;
    }
    const next = currentlyShown ? "closed" : "open";
    remember(next);
    set({ preference: next });
  },

  setSheetOpen(open) {
    set({ sheetOpen: open });
  },
}));
