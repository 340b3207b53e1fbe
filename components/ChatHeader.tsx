"use client";
// Title, model and the token bar of the open session, plus the way into its settings.
import { Menu, Settings } from "lucide-react";
import { getModel } from "@/lib/llm/models";
import { useCurrentSession } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { TokenBar } from "@/components/TokenBar";
import { MemoryButton } from "@/components/MemoryButton";
import { ForkedFromLink, SessionHeaderControls } from "@/components/SessionHeaderControls";

export function ChatHeader({ onOpenSettings, onToggleSidebar }: { onOpenSettings(): void; onToggleSidebar(): void }) {
  const session = useCurrentSession();
  const status = useStatusStore((s) => s.status);
  const statusError = useStatusStore((s) => s.error);
  const modelId = status?.model ?? session?.model ?? null;
  const modelLabel = modelId ? (getModel(modelId)?.label ?? modelId) : null;

  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 px-4 py-2.5">
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label="Show sessions"
        className="rounded p-1 text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800 md:hidden"
      >
        <Menu aria-hidden className="h-5 w-5" />
      </button>
      <div className="min-w-[8rem] flex-1">
        <h1 className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-100" data-testid="session-title">
          {session ? session.title || "Untitled session" : "New conversation"}
        </h1>
        {modelLabel && (
          <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" data-testid="session-model">
            {modelLabel}
          </p>
        )}
        <ForkedFromLink />
      </div>
      {/* Wraps rather than pushing the memory and settings buttons out of view when a side panel narrows the chat. */}
      <div className="flex min-w-0 flex-wrap items-center justify-end gap-2">
        <SessionHeaderControls />
        <TokenBar status={status} />
        {statusError && (
          <span role="alert" className="text-xs text-red-700 dark:text-red-400" title={statusError}>
            Status unavailable
          </span>
        )}
        <MemoryButton />
        <button
          type="button"
          data-testid="open-settings"
          onClick={onOpenSettings}
          disabled={!session}
          aria-label="Context settings"
          title={session ? "Context settings" : "Settings apply to a session; send a message first"}
          className="rounded-md p-1.5 text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800 disabled:opacity-40"
        >
          <Settings aria-hidden className="h-[18px] w-[18px]" />
        </button>
      </div>
    </header>
  );
}

