// Memories of the open session (what it loaded from earlier sessions and what it saved),
// the memory search and the memory panel's open state. Dropping, restoring and pinning
// change what the next request holds, so the token bar's status is refetched after them.
import { create } from "zustand";
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson, MemoryKind } from "@/lib/contract";
import { describeError } from "@/lib/client/api/http";
import * as memoryApi from "@/lib/client/api/memory";
import { useStatusStore } from "@/lib/client/status-store";

interface MemoryState {
  open: boolean;
  /** The session the lists are for; answers for any other session are dropped. */
  sessionId: string | null;
  loaded: LoadedMemoryJson[];
  /** Saved from this session (by hand, at compaction, or by archiving). */
  saved: MemoryJson[];
  /** Facts learned from this session, current first, then those replaced since. */
  facts: MemoryJson[];
  /** The lists came from the server at least once for this session (tells "none yet" from "not loaded"). */
  listed: boolean;
  loading: boolean;
  error: string | null;
  /** Memory ids with a drop/restore, pin or delete in flight. */
  busy: Record<string, boolean>;

  query: string;
  /** Search summaries and facts, or only one kind. */
  searchKind: MemoryKind | "all";
  hits: MemoryHitJson[] | null;
  searching: boolean;
  searchError: string | null;

  saving: boolean;
  archiving: boolean;
  /** A short confirmation after a save or an archive. */
  notice: string | null;

  setOpen(open: boolean): void;
  toggle(): void;
  track(sessionId: string | null): void;
  load(sessionId: string): Promise<void>;
  /** The `memories` event of a send: what the session's first request loaded. */
  acceptLoaded(sessionId: string, loaded: LoadedMemoryJson[]): void;
  toggleDropped(memoryId: string): Promise<void>;
  /** Drops every memory the session loaded (or brings them all back): the chat line's Undo. */
  setAllDropped(dropped: boolean): Promise<void>;
  togglePinned(memory: MemoryJson): Promise<void>;
  remove(memoryId: string): Promise<void>;
  search(query: string): Promise<void>;
  setSearchKind(kind: MemoryKind | "all"): Promise<void>;
  save(summary: string, tags?: string[]): Promise<boolean>;
  archive(): Promise<void>;
}

/** Counts the loaded lists a send reported, so a slower read does not put back an older one. */
let acceptedLoads = 0;

function replaceLoaded(list: LoadedMemoryJson[], memory: MemoryJson): LoadedMemoryJson[] {
  return list.map((l) => (l.memory.id === memory.id ? { ...l, memory } : l));
}

function replaceMemory<T extends MemoryJson>(list: T[], memory: MemoryJson): T[] {
  return list.map((m) => (m.id === memory.id ? { ...m, ...memory } : m));
}

let searchAbort: AbortController | null = null;

export const useMemoryStore = create<MemoryState>()((set, get) => {
  const isTracked = (sessionId: string) => get().sessionId === sessionId;
  const markBusy = (id: string, on: boolean) =>
    set((s) => {
      if (on) return { busy: { ...s.busy, [id]: true } };
      const { [id]: _, ...rest } = s.busy;
      return { busy: rest };
    });

  return {
    open: false,
    sessionId: null,
    loaded: [],
    saved: [],
    facts: [],
    listed: false,
    loading: false,
    error: null,
    busy: {},
    query: "",
    searchKind: "all",
    hits: null,
    searching: false,
    searchError: null,
    saving: false,
    archiving: false,
    notice: null,

    setOpen(open) {
      set({ open, ...(open ? {} : { notice: null }) });
    },

    toggle() {
      get().setOpen(!get().open);
    },

    track(sessionId) {
      if (get().sessionId === sessionId) return;
      set({ sessionId, loaded: [], saved: [], facts: [], listed: false, loading: false, error: null, busy: {}, notice: null });
    },

    async load(sessionId) {
      get().track(sessionId);
      set({ loading: true, error: null });
      const accepted = acceptedLoads;
      try {
        const res = await memoryApi.sessionMemories(sessionId);
        // A first message's loaded memories that arrived while this read was on its way are newer.
        const loaded = acceptedLoads === accepted ? res.loaded : get().loaded;
        if (isTracked(sessionId)) set({ loaded, saved: res.memories, facts: res.facts, listed: true, loading: false });
      } catch (err) {
        if (isTracked(sessionId)) set({ loading: false, error: describeError(err).message });
      }
    },

    acceptLoaded(sessionId, loaded) {
      get().track(sessionId);
      acceptedLoads += 1;
      if (loaded.length > 0 || get().loaded.length === 0) set({ loaded });
    },

    async toggleDropped(memoryId) {
      const { sessionId, loaded, busy } = get();
      const item = loaded.find((l) => l.memory.id === memoryId);
      if (!sessionId || !item || busy[memoryId]) return;
      markBusy(memoryId, true);
      set({ error: null });
      try {
        const next = await memoryApi.setDropped(sessionId, memoryId, !item.dropped);
        if (isTracked(sessionId)) set({ loaded: next });
        // The memory block of the next request changed: the bar's "memory" part with it.
        void useStatusStore.getState().load(sessionId);
      } catch (err) {
        if (isTracked(sessionId)) set({ error: describeError(err).message });
      } finally {
        markBusy(memoryId, false);
      }
    },

    async setAllDropped(dropped) {
      const { sessionId, loaded } = get();
      if (!sessionId) return;
      for (const l of loaded) if (l.dropped !== dropped && !get().busy[l.memory.id]) await get().toggleDropped(l.memory.id);
    },

    async togglePinned(memory) {
      if (get().busy[memory.id]) return;
      markBusy(memory.id, true);
      set({ error: null, searchError: null });
      try {
        const updated = await memoryApi.setPinned(memory.id, !memory.pinned);
        set((s) => ({
          loaded: replaceLoaded(s.loaded, updated),
          saved: replaceMemory(s.saved, updated),
          facts: replaceMemory(s.facts, updated),
          hits: s.hits ? replaceMemory(s.hits, updated) : s.hits,
        }));
      } catch (err) {
        set({ error: describeError(err).message });
      } finally {
        markBusy(memory.id, false);
      }
    },

    async remove(memoryId) {
      if (get().busy[memoryId]) return;
      markBusy(memoryId, true);
      set({ error: null, searchError: null });
      try {
        await memoryApi.deleteMemory(memoryId);
        const { sessionId, loaded, facts } = get();
        const wasLoaded = loaded.some((l) => l.memory.id === memoryId);
        // Deleting a fact makes the one it replaced current again: the server's list says which.
        const replacedOne = facts.some((f) => f.fact?.superseded_by === memoryId);
        set((s) => ({
          saved: s.saved.filter((m) => m.id !== memoryId),
          facts: s.facts.filter((m) => m.id !== memoryId),
          hits: s.hits ? s.hits.filter((h) => h.id !== memoryId) : s.hits,
        }));
        // A deleted memory may have been loaded here; the server's lists and status say what is left.
        if (sessionId && (wasLoaded || replacedOne)) await get().load(sessionId);
        if (sessionId && wasLoaded) void useStatusStore.getState().load(sessionId);
      } catch (err) {
        set({ error: describeError(err).message });
      } finally {
        markBusy(memoryId, false);
      }
    },

    async search(rawQuery) {
      const query = rawQuery.trim();
      searchAbort?.abort();
      set({ query: rawQuery });
      if (!query) {
        searchAbort = null;
        set({ hits: null, searching: false, searchError: null });
        return;
      }
      const controller = new AbortController();
      searchAbort = controller;
      set({ searching: true, searchError: null });
      try {
        const kind = get().searchKind;
        const hits = await memoryApi.searchMemories({ query, limit: 20, ...(kind === "all" ? {} : { kind }) }, controller.signal);
        if (searchAbort === controller) set({ hits, searching: false });
      } catch (err) {
        if (err instanceof DOMException && err.name === "AbortError") return;
        if (searchAbort === controller) set({ searching: false, searchError: describeError(err).message });
      }
    },

    async setSearchKind(kind) {
      if (get().searchKind === kind) return;
      set({ searchKind: kind });
      await get().search(get().query);
    },

    async save(summary, tags) {
      const text = summary.trim();
      const { sessionId, saving } = get();
      if (!text || saving) return false;
      set({ saving: true, error: null, notice: null });
      try {
        const memory = await memoryApi.saveMemory({
          summary: text,
          ...(sessionId ? { session_id: sessionId } : {}),
          ...(tags && tags.length > 0 ? { tags } : {}),
        });
        if (get().sessionId === sessionId) set((s) => ({ saved: [memory, ...s.saved], notice: "Memory saved." }));
        return true;
      } catch (err) {
        set({ error: describeError(err).message });
        return false;
      } finally {
        set({ saving: false });
      }
    },

    async archive() {
      const { sessionId, archiving } = get();
      if (!sessionId || archiving) return;
      set({ archiving: true, error: null, notice: null });
      try {
        const memory = await memoryApi.archiveSession(sessionId);
        if (isTracked(sessionId)) {
          set((s) => ({
            saved: [memory, ...s.saved.filter((m) => m.id !== memory.id)],
            notice: "Session archived into a memory.",
          }));
          // An archive also stores the facts of the turns since the last compaction.
          await get().load(sessionId);
        }
      } catch (err) {
        if (isTracked(sessionId)) set({ error: describeError(err).message });
      } finally {
        set({ archiving: false });
      }
    },
  };
});
