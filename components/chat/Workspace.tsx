"use client";
// The chat workspace: sessions on the left, the open conversation on the right. The
// open session follows the URL so reloads, back/forward and shared links agree.
import { useCallback, useEffect, useState } from "react";
import { useConversationStore } from "@/lib/client/conversation-store";
import { sessionIdFromUrl, useSessionsStore } from "@/lib/client/sessions-store";
import { useSettingsPanel } from "@/lib/client/settings-panel-store";
import { ChatHeader } from "@/components/chat/ChatHeader";
import { Composer } from "@/components/chat/Composer";
import { FileDropArea } from "@/components/chat/files/FileDropArea";
import { MessageList } from "@/components/chat/MessageList";
import { SessionSidebar } from "@/components/sessions/SessionSidebar";
import { SettingsPanel } from "@/components/settings/SettingsPanel";
import { MemoryPanel } from "@/components/memory/MemoryPanel";
import { CheckpointPanel } from "@/components/context/CheckpointPanel";
import { LaunchLayer } from "@/components/sessions/LaunchLayer";
import { CanvasPanel } from "@/components/canvas/CanvasPanel";
import { HistorySearch } from "@/components/chat/HistorySearch";
import { CompactionAnnouncer } from "@/components/context/CompactionAnnouncer";
import { StorageBanner } from "@/components/ui/StorageBanner";

export function Workspace() {
  const currentId = useSessionsStore((s) => s.currentId);
  const [sidebarOpen, setSidebarOpen] = useState(false);

  useEffect(() => {
    const sessions = useSessionsStore.getState();
    sessions.select(sessionIdFromUrl(), { replace: true });
    void sessions.load();
    const onPopState = () => useSessionsStore.getState().select(sessionIdFromUrl(), { replace: true });
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  useEffect(() => {
    void useConversationStore.getState().open(currentId);
    // A linked session may be missing from the list (not loaded yet, or older than its page).
    if (currentId) void useSessionsStore.getState().refresh(currentId);
    if (useSettingsPanel.getState().open === "session") useSettingsPanel.getState().close();
  }, [currentId]);

  const closeSidebar = useCallback(() => setSidebarOpen(false), []);

  return (
    // Exactly the viewport, positioned and clipping: only the message list scrolls, and nothing
    // absolutely placed inside (a screen-reader line) can stretch the document past the window.
    <div className="relative flex h-dvh overflow-hidden bg-zinc-50 dark:bg-zinc-950 text-zinc-900 dark:text-zinc-100">
      <aside className="hidden w-64 shrink-0 border-r border-zinc-200 dark:border-zinc-800 bg-zinc-100/60 dark:bg-zinc-900/60 md:block">
        <SessionSidebar />
      </aside>
      {sidebarOpen && (
        <div className="fixed inset-0 z-40 flex md:hidden" onClick={closeSidebar}>
          <aside className="h-full w-72 bg-zinc-50 dark:bg-zinc-900 shadow-xl" onClick={(e) => e.stopPropagation()}>
            <SessionSidebar onNavigate={closeSidebar} />
          </aside>
          <div className="flex-1 bg-zinc-900/20 dark:bg-black/60" />
        </div>
      )}
      <FileDropArea className="@container flex min-h-0 min-w-0 flex-1 flex-col">
        <ChatHeader onOpenSettings={() => useSettingsPanel.getState().show("session")} onToggleSidebar={() => setSidebarOpen((v) => !v)} />
        <StorageBanner />
        <MessageList />
        {/* One composer per session: each starts from its own draft. */}
        <Composer key={currentId ?? "new"} sessionId={currentId} />
      </FileDropArea>
      <CanvasPanel />
      <CheckpointPanel />
      <SettingsPanel />
      <MemoryPanel />
      <LaunchLayer />
      <HistorySearch />
      <CompactionAnnouncer />
    </div>
  );
}
