"use client";
// The session list: start a new session or reopen an earlier one.
import { useEffect, useState } from "react";
import { MessageSquareText, Plus, Search } from "lucide-react";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { useHistorySearch } from "@/lib/client/history-search-store";
import { useLaunchStore } from "@/lib/client/launch-store";
import { useSettingsPanel } from "@/lib/client/settings-panel-store";
import { searchShortcutLabel } from "@/lib/client/shortcut";
import { AccountFooter } from "@/components/auth/AccountFooter";
import { DeletedSessionNotice, SessionList } from "@/components/sessions/SessionList";
import { ThemeToggle } from "@/components/ui/ThemeToggle";
import { DashboardLink } from "@/components/dashboard/DashboardLink";

/** The two search buttons: sessions and projects, and all messages. */
const SEARCH_BUTTON =
  "flex w-full items-center gap-1.5 rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2.5 py-1.5 text-left text-xs text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50";

export function SessionSidebar({ onNavigate }: { onNavigate?(): void }) {
  const error = useSessionsStore((s) => s.error);
  const creating = useSessionsStore((s) => s.creating);
  const select = useSessionsStore((s) => s.select);
  const create = useSessionsStore((s) => s.create);
  // Switching mid-reply would hide the reply's end; the list waits for it instead.
  const sending = useConversationStore((s) => s.phase !== "idle");
  // Known only in the browser: the server renders Ctrl K, a Mac shows ⌘ K once mounted.
  const [shortcut, setShortcut] = useState("Ctrl K");
  useEffect(() => setShortcut(searchShortcutLabel()), []);

  return (
    <nav aria-label="Sessions" className="flex h-full flex-col">
      <div className="flex items-center justify-between gap-2 px-4 pb-3 pt-4">
        <span className="text-sm font-semibold tracking-tight text-zinc-900 dark:text-zinc-100">Threadkeeper</span>
        <button
          type="button"
          data-testid="new-session"
          aria-label="New session"
          onClick={() => {
            void create().then(onNavigate, () => undefined);
          }}
          disabled={creating || sending}
          className="inline-flex items-center gap-1 whitespace-nowrap rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-2 py-1 text-xs font-medium text-zinc-700 dark:text-zinc-300 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-50"
        >
          <Plus aria-hidden className="h-3.5 w-3.5" />
          New
        </button>
      </div>
      <div className="px-4 pb-2">
        <button
          type="button"
          data-testid="open-picker"
          onClick={() => {
            useLaunchStore.getState().openPicker();
            onNavigate?.();
          }}
          disabled={sending}
          className={SEARCH_BUTTON}
        >
          <Search aria-hidden className="h-3.5 w-3.5 shrink-0" />
          Search sessions &amp; projects
        </button>
        <button
          type="button"
          data-testid="open-history-search"
          title={`Search all messages (${shortcut})`}
          onClick={() => {
            useHistorySearch.getState().show();
            onNavigate?.();
          }}
          className={`mt-1.5 ${SEARCH_BUTTON}`}
        >
          <MessageSquareText aria-hidden className="h-3.5 w-3.5 shrink-0" />
          <span className="flex-1">Search all messages</span>
          <kbd className="hidden font-sans text-[10px] text-zinc-500 md:inline dark:text-zinc-400">{shortcut}</kbd>
        </button>
      </div>
      {error && (
        <p role="alert" className="mx-4 mb-2 rounded-md bg-red-50 dark:bg-red-950/40 px-2 py-1.5 text-xs text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
      <SessionList
        sending={sending}
        onOpen={(id) => {
          select(id);
          onNavigate?.();
        }}
      />
      <DeletedSessionNotice />
      <div className="flex items-center justify-between gap-2 border-t border-zinc-200 dark:border-zinc-800 px-4 py-2.5">
        <span className="text-xs text-zinc-600 dark:text-zinc-400">Theme</span>
        <ThemeToggle />
      </div>
      <DashboardLink
        onAccountSettings={() => {
          useSettingsPanel.getState().show("account");
          onNavigate?.();
        }}
      />
      <AccountFooter />
    </nav>
  );
}
