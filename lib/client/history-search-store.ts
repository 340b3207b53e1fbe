// Search over everything said in every session (GET /api/search), for the search dialog: the
// query, its hits, and which one the keyboard is on. A newer query supersedes an older one
// still on its way, so fast typing never shows stale hits.
import { create } from "zustand";
import type { HistoryHitJson } from "@/lib/contract";
import { ApiError } from "@/lib/client/api/http";
import { fetchHistoryHits } from "@/lib/client/api/search";

interface HistorySearchState {
  open: boolean;
  query: string;
  /** The query the hits answer; null before the first search. */
  searched: string | null;
  /** The query on its way to the server, if any. */
  pending: string | null;
  hits: HistoryHitJson[];
  loading: boolean;
  error: string | null;
  /** Index of the hit the arrow keys are on. */
  active: number;
  show(query?: string): void;
  close(): void;
  setQuery(query: string): void;
  search(): Promise<void>;
  move(by: number): void;
  setActive(index: number): void;
  /** Shows why a hit could not be opened. */
  fail(error: string): void;
}

let controller: AbortController | null = null;

export const useHistorySearch = create<HistorySearchState>((set, get) => ({
  open: false,
  query: "",
  searched: null,
  pending: null,
  hits: [],
  loading: false,
  error: null,
  active: 0,
  show: (query) => {
    set({ open: true, ...(query !== undefined ? { query } : {}) });
    if (query?.trim()) void get().search();
  },
  close: () => {
    controller?.abort();
    set({ open: false, loading: false, pending: null });
  },
  setQuery: (query) => set({ query }),
  search: async () => {
    const q = get().query.trim();
    controller?.abort();
    if (!q) {
      set({ searched: null, pending: null, hits: [], loading: false, error: null, active: 0 });
      return;
    }
    const mine = new AbortController();
    controller = mine;
    set({ loading: true, error: null, pending: q });
    try {
      const hits = await fetchHistoryHits(q, mine.signal);
      if (controller === mine) set({ hits, searched: q, pending: null, loading: false, active: 0 });
    } catch (err) {
      if (mine.signal.aborted) return;
      set({ loading: false, pending: null, error: err instanceof ApiError ? err.message : "The search failed. Try again." });
    }
  },
  move: (by) => {
    const { hits, active } = get();
    if (hits.length > 0) set({ active: (active + by + hits.length) % hits.length });
  },
  setActive: (index) => set({ active: index }),
  fail: (error) => set({ error }),
}));
