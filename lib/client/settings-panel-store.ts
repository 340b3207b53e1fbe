// Which settings panel is open: the open session's, or the account's (defaults for new
// sessions, summary templates, API keys). One at a time; the sidebar and the header open them.
import { create } from "zustand";

export type SettingsPanelKind = "session" | "account";

interface SettingsPanelState {
  open: SettingsPanelKind | null;
  show(kind: SettingsPanelKind): void;
  close(): void;
}

export const useSettingsPanel = create<SettingsPanelState>()((set) => ({
  open: null,
  show: (kind) => set({ open: kind }),
  close: () => set({ open: null }),
}));
