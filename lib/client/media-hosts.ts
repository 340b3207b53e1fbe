// Hosts whose canvas media the user chose to load in this tab. Nothing Claude puts on the
// canvas by URL loads by itself: its address could carry what Claude was shown (a prompt
// injected by a web page or a recalled message) to whoever serves it. One "Show" per host
// stands for every element from it until the tab closes.
import { create } from "zustand";

interface MediaHostsState {
  allowed: ReadonlySet<string>;
  allow(host: string): void;
}

export const useMediaHosts = create<MediaHostsState>((set) => ({
  allowed: new Set(),
  allow: (host) => set((s) => (s.allowed.has(host) ? s : { allowed: new Set([...s.allowed, host]) })),
}));
