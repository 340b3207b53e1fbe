"use client";
// Search everything said in every session: type, see the messages that match (session, who
// said it, when, the words found) and the pages of sent files that do (the file and page), and
// open one where it was said or sent. Ctrl/⌘ K or `/search` opens it; arrows move, Enter
// opens, Escape closes.
import { useEffect, useRef } from "react";
import { FileText, Search, X } from "lucide-react";
import type { HistoryHitJson } from "@/lib/contract";
import { useConversationStore } from "@/lib/client/conversation-store";
import { relativeTime } from "@/lib/client/format";
import { useHistorySearch } from "@/lib/client/history-search-store";
import { jumpToMessage } from "@/lib/client/jump-to-message";
import { isSearchShortcut } from "@/lib/client/shortcut";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { highlightRuns, queryTerms } from "@/lib/context/snippet";
import { useDialogFocus } from "@/components/ui/useDialogFocus";
import { useEscapeKey } from "@/components/ui/useEscapeKey";

const SEARCH_DEBOUNCE_MS = 250;

/** Mounted once: the dialog when open, and the shortcut that opens it. */
export function HistorySearch() {
  const open = useHistorySearch((s) => s.open);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isSearchShortcut(e)) {
        e.preventDefault();
        useHistorySearch.getState().show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return open ? <SearchDialog /> : null;
}

function SearchDialog() {
  const { query, searched, hits, loading, error, active } = useHistorySearch();
  const store = useHistorySearch.getState();
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEscapeKey(store.close);
  useDialogFocus(dialog, input);
  // Reopened, it shows the last query selected: type over it or press Enter to see it again.
  useEffect(() => input.current?.select(), []);

  // Typing waits for a pause before searching.
  useEffect(() => {
    const { searched, pending } = useHistorySearch.getState();
    if (query.trim() === (pending ?? searched ?? "")) return;
    const t = setTimeout(() => void useHistorySearch.getState().search(), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);

  const terms = queryTerms(searched ?? "");
  const openHit = (hit: HistoryHitJson) => {
    // As in the session list: switching mid-reply would hide the reply's end.
    const busy = useConversationStore.getState().phase !== "idle";
    if (busy && hit.session_id !== useSessionsStore.getState().currentId) {
      store.fail("Claude is still replying here: open this once the reply is done.");
      return;
    }
    store.close();
    void jumpToMessage(hit.session_id, hit.seq);
  };

  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-zinc-900/30 p-4 dark:bg-black/60 sm:pt-16" onClick={store.close}>
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label="Search all messages"
        data-testid="history-search"
        onClick={(e) => e.stopPropagation()}
        className="w-full max-w-2xl rounded-xl border border-zinc-200 bg-white shadow-2xl dark:border-zinc-800 dark:bg-zinc-900"
      >
        <div className="flex items-center gap-2 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <Search aria-hidden className="h-4 w-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
          <input
            ref={input}
            type="text"
            enterKeyHint="search"
            autoComplete="off"
            role="combobox"
            aria-expanded={hits.length > 0}
            aria-controls="history-search-hits"
            aria-activedescendant={hits.length > 0 ? `history-hit-${active}` : undefined}
            aria-label="Search all messages"
            data-testid="history-search-input"
            placeholder="Search everything said in your sessions…"
            value={query}
            onChange={(e) => store.setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "ArrowDown" || e.key === "ArrowUp") {
                e.preventDefault();
                store.move(e.key === "ArrowDown" ? 1 : -1);
              } else if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                e.preventDefault();
                const hit = hits[active];
                if (hit && searched === query.trim()) openHit(hit);
                else void store.search();
              }
            }}
            className="min-w-0 flex-1 bg-transparent text-sm text-zinc-900 outline-none placeholder:text-zinc-400 dark:text-zinc-100"
          />
          <button
            type="button"
            aria-label="Close search"
            onClick={store.close}
            className="rounded px-1.5 py-1 text-zinc-500 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
          >
            <X aria-hidden className="h-4 w-4" />
          </button>
        </div>
        <div className="max-h-[60vh] overflow-y-auto" aria-busy={loading}>
          {error ? (
            <div role="alert" className="m-4 flex items-center gap-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300">
              <span className="min-w-0 flex-1">{error}</span>
              <button type="button" onClick={() => void store.search()} className="rounded border border-red-300 px-2 py-0.5 text-xs font-medium dark:border-red-800">
                Retry
              </button>
            </div>
          ) : searched === null ? (
            <p className="px-4 py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">
              {loading ? "Searching…" : "Names, numbers, decisions, phrases: anything you or Claude said, in any session, however long ago."}
            </p>
          ) : hits.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="history-search-empty">
              {loading ? "Searching…" : <>Nothing found for “{searched}”.</>}
            </p>
          ) : (
            <ul id="history-search-hits" role="listbox" aria-label="Messages found" className="divide-y divide-zinc-100 py-1 dark:divide-zinc-800" data-testid="history-search-hits">
              {hits.map((hit, i) => (
                <HitRow key={`${hit.message_id}-${hit.file?.id ?? ""}`} hit={hit} index={i} active={i === active} terms={terms} onOpen={openHit} />
              ))}
            </ul>
          )}
        </div>
        <p className="hidden border-t border-zinc-200 px-4 py-2 text-[11px] text-zinc-500 dark:border-zinc-800 dark:text-zinc-400 sm:block">
          ↑ ↓ to choose · Enter to open where it was said · Esc to close
        </p>
      </div>
    </div>
  );
}

function HitRow({ hit, index, active, terms, onOpen }: { hit: HistoryHitJson; index: number; active: boolean; terms: string[]; onOpen(hit: HistoryHitJson): void }) {
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (active) row.current?.scrollIntoView({ block: "nearest" });
  }, [active]);
  return (
    <li
      ref={row}
      id={`history-hit-${index}`}
      role="option"
      aria-selected={active}
      data-testid="history-hit"
      data-session-id={hit.session_id}
      data-seq={hit.seq}
      onClick={() => onOpen(hit)}
      onMouseMove={() => !active && useHistorySearch.getState().setActive(index)}
      className={`cursor-pointer px-4 py-2.5 ${active ? "bg-sky-50 dark:bg-sky-950/40" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/60"}`}
    >
      <div className="flex items-baseline gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span className="min-w-0 truncate font-medium text-zinc-800 dark:text-zinc-200">{hit.session_title || "Untitled session"}</span>
        {hit.file ? (
          // Found inside a file: opening it goes to the message that carries the file.
          <span className="flex min-w-0 items-center gap-1" data-testid="history-hit-file">
            <FileText aria-hidden className="h-3.5 w-3.5 shrink-0" />
            <span className="truncate">{hit.file.name}</span>
            <span className="shrink-0">· p. {hit.file.page}</span>
          </span>
        ) : (
          <span className="shrink-0">{hit.role === "user" ? "You" : "Claude"}</span>
        )}
        <span className="ml-auto shrink-0">{relativeTime(hit.created_at)}</span>
      </div>
      <p className="mt-0.5 line-clamp-3 break-words text-sm text-zinc-700 dark:text-zinc-300">
        {highlightRuns(hit.snippet, terms).map((r, i) =>
          r.match ? (
            <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-zinc-900 dark:bg-amber-500/30 dark:text-zinc-100">
              {r.text}
            </mark>
          ) : (
            <span key={i}>{r.text}</span>
          ),
        )}
      </p>
    </li>
  );
}
