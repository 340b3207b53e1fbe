// Whether the canvas shows. On a wide screen it is a panel beside the chat, open or collapsed
// as the user last left it (remembered in this browser); until they choose, it opens when the
// canvas has something on it. On a narrow screen it is a full-width sheet opened from the
// header, never reopened by a reload.
import { create } from "zustand";

const KEY = "tk.canvas.panel";
/** The width from which the panel sits beside the chat (Tailwind's `lg`). */
export const WIDE_QUERY = "(min-width: 1024px)";

export type PanelPreference = "open" | "closed" | null;

interface CanvasPanelState {
  preference: PanelPreference;
  sheetOpen: boolean;
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

/** Whether the wide panel shows, given the preference and what the canvas holds. */
export function panelShown(preference: PanelPreference, elementCount: number): boolean {
  return preference === null ? elementCount > 0 : preference === "open";
}

export const useCanvasPanelStore = create<CanvasPanelState>()((set, get) => ({
  preference: null,
  sheetOpen: false,

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
