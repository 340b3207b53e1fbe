"use client";
// Cross-session memory of the open session: what its first message loaded from earlier
// sessions (drop, restore, pin), the facts learned from it, a search over all memories, a form to remember something
// by hand, and archiving the whole session into a memory. Always mounted: it keeps the
// memory store on the open session and renders only while open.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { compactTokens } from "@/lib/client/format";
import { useMemoryStore } from "@/lib/client/memory-store";
import { useSessionsStore } from "@/lib/client/sessions-store";
import type { MemoryKind } from "@/lib/contract";
import { FactsSection } from "@/components/memory/FactsSection";
import { LoadedMemoryItem, MemoryHitItem, SavedMemoryItem } from "@/components/memory/MemoryItems";
import { SidePanel } from "@/components/ui/SidePanel";

const SEARCH_DEBOUNCE_MS = 250;
const FIELD_CLASS =
  "w-full rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-3 py-1.5 text-sm outline-none focus:border-sky-500 focus:ring-1 focus:ring-sky-500";

export function MemoryPanel() {
  const currentId = useSessionsStore((s) => s.currentId);
  const open = useMemoryStore((s) => s.open);

  // Loaded on every session change (the header button counts what the session loaded) and again on opening.
  useEffect(() => {
    const store = useMemoryStore.getState();
    if (currentId) void store.load(currentId);
    else store.track(null);
  }, [open, currentId]);

  if (!open) return null;
  return <MemoryPanelBody sessionId={currentId} />;
}

const closeMemory = () => useMemoryStore.getState().setOpen(false);

function MemoryPanelBody({ sessionId }: { sessionId: string | null }) {
  return (
    <SidePanel
      title="Memory"
      testId="memory-panel"
      closeLabel="Close memory panel"
      closeTestId="close-memory"
      className="max-w-md gap-5 bg-zinc-50 dark:bg-zinc-950"
      onClose={closeMemory}
    >
      <p className="-mt-3 text-xs text-zinc-500 dark:text-zinc-400">
        What Claude remembers across sessions. A session&apos;s first message loads the most relevant memories into its
        context, within the memory budget. Facts are single statements (names, places, dates, plans, decisions) taken from
        condensed or archived turns.
      </p>
      <Feedback />
      <LoadedSection sessionId={sessionId} />
      <FactsSection sessionId={sessionId} />
      <SearchSection />
      <RememberSection sessionId={sessionId} />
      <SavedSection />
    </SidePanel>
  );
}

function Feedback() {
  const error = useMemoryStore((s) => s.error);
  const notice = useMemoryStore((s) => s.notice);
  if (error) {
    return (
      <p role="alert" data-testid="memory-error" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
        {error}
      </p>
    );
  }
  if (notice) {
    return (
      <p role="status" data-testid="memory-notice" className="rounded-md bg-emerald-50 dark:bg-emerald-950/40 px-3 py-2 text-sm text-emerald-800 dark:text-emerald-300">
        {notice}
      </p>
    );
  }
  return null;
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} className="flex flex-col gap-2">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{title}</h3>
      {children}
    </section>
  );
}

function LoadedSection({ sessionId }: { sessionId: string | null }) {
  const loaded = useMemoryStore((s) => s.loaded);
  const loading = useMemoryStore((s) => s.loading);
  const active = loaded.filter((l) => !l.dropped);
  const tokens = active.reduce((n, l) => n + l.tokens, 0);

  return (
    <Section title="Loaded in this session" testId="memory-loaded-section">
      {!sessionId ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No session yet: memories load with a session&apos;s first message.</p>
      ) : loading && loaded.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>
      ) : loaded.length === 0 ? (
        <p data-testid="memory-loaded-empty" className="text-sm text-zinc-500 dark:text-zinc-400">
          No memories were loaded into this session.
        </p>
      ) : (
        <>
          <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="memory-loaded-summary">
            {active.length} of {loaded.length} in context · about {compactTokens(tokens)} tokens
          </p>
          <ul className="flex flex-col gap-2">
            {loaded.map((item) => (
              <LoadedMemoryItem key={item.memory.id} item={item} />
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

function SearchSection() {
  const storedQuery = useMemoryStore((s) => s.query);
  const hits = useMemoryStore((s) => s.hits);
  const searching = useMemoryStore((s) => s.searching);
  const searchError = useMemoryStore((s) => s.searchError);
  const [query, setQuery] = useState(storedQuery);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const onChange = (value: string) => {
    setQuery(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void useMemoryStore.getState().search(value), SEARCH_DEBOUNCE_MS);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (timer.current) clearTimeout(timer.current);
    void useMemoryStore.getState().search(query);
  };

  return (
    <Section title="Search">
      <form role="search" onSubmit={onSubmit}>
        <input
          type="search"
          data-testid="memory-search"
          value={query}
          onChange={(e) => onChange(e.target.value)}
          placeholder="Search all memories…"
          aria-label="Search memories"
          className={FIELD_CLASS}
        />
      </form>
      <SearchKindFilter />
      {searchError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {searchError}
        </p>
      )}
      {searching && <p className="text-xs text-zinc-500 dark:text-zinc-400">Searching…</p>}
      {hits && !searching && hits.length === 0 && (
        <p data-testid="memory-search-empty" className="text-sm text-zinc-500 dark:text-zinc-400">
          No memories match.
        </p>
      )}
      {hits && hits.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="memory-hits">
          {hits.map((hit) => (
            <MemoryHitItem key={hit.id} hit={hit} />
          ))}
        </ul>
      )}
    </Section>
  );
}

const KIND_OPTIONS: { value: MemoryKind | "all"; label: string }[] = [
  { value: "all", label: "All" },
  { value: "fact", label: "Facts" },
  { value: "summary", label: "Summaries" },
];

/** Which kind of memory the search answers: facts alone are easier to check at a glance. */
function SearchKindFilter() {
  const kind = useMemoryStore((s) => s.searchKind);
  return (
    <div role="group" aria-label="Search in" className="flex gap-1" data-testid="memory-search-kind">
      {KIND_OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={kind === o.value}
          data-kind={o.value}
          onClick={() => void useMemoryStore.getState().setSearchKind(o.value)}
          className={`rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${
            kind === o.value
              ? "bg-zinc-900 text-white ring-zinc-900 dark:bg-zinc-100 dark:text-zinc-900 dark:ring-zinc-100"
              : "text-zinc-600 ring-zinc-300 hover:bg-zinc-100 dark:text-zinc-400 dark:ring-zinc-700 dark:hover:bg-zinc-800"
          }`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

function RememberSection({ sessionId }: { sessionId: string | null }) {
  const saving = useMemoryStore((s) => s.saving);
  const archiving = useMemoryStore((s) => s.archiving);
  const [text, setText] = useState("");
  const [tags, setTags] = useState("");

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const tagList = tags
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (await useMemoryStore.getState().save(text, tagList)) {
      setText("");
      setTags("");
    }
  };

  return (
    <Section title="Remember">
      <form onSubmit={onSubmit} className="flex flex-col gap-2">
        <textarea
          data-testid="memory-new"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          placeholder="A decision, a fact or a convention to remember in later sessions…"
          aria-label="New memory"
          className={`resize-y ${FIELD_CLASS}`}
        />
        <input
          type="text"
          data-testid="memory-new-tags"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          placeholder="Tags, comma-separated (optional)"
          aria-label="Tags of the new memory"
          className={FIELD_CLASS}
        />
        <div className="flex items-center justify-between gap-2">
          <button
            type="submit"
            data-testid="memory-save"
            disabled={saving || !text.trim()}
            className="rounded-md bg-zinc-900 dark:bg-zinc-100 px-3 py-1.5 text-sm font-medium text-white dark:text-zinc-900 hover:bg-zinc-700 dark:hover:bg-zinc-300 disabled:opacity-40"
          >
            {saving ? "Saving…" : "Remember"}
          </button>
          <button
            type="button"
            data-testid="memory-archive"
            disabled={!sessionId || archiving}
            onClick={() => void useMemoryStore.getState().archive()}
            title={sessionId ? "Summarize this whole session into one memory" : "Start the conversation first"}
            className="rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-3 py-1.5 text-sm font-medium text-zinc-700 dark:text-zinc-300 hover:bg-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-40"
          >
            {archiving ? "Archiving…" : "Archive session"}
          </button>
        </div>
      </form>
    </Section>
  );
}

function SavedSection() {
  const saved = useMemoryStore((s) => s.saved);
  if (saved.length === 0) return null;
  return (
    <Section title="Saved from this session" testId="memory-saved-section">
      <ul className="flex flex-col gap-2">
        {saved.map((m) => (
          <SavedMemoryItem key={m.id} memory={m} />
        ))}
      </ul>
    </Section>
  );
}
