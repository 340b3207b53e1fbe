"use client";
// Title, model and the token bar of the open session, plus the way into its settings.
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
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 bg-white px-4 py-2.5">
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label="Show sessions"
        className="rounded p-1 text-zinc-600 hover:bg-zinc-100 md:hidden"
      >
        ☰
      </button>
      <div className="min-w-[8rem] flex-1">
        <h1 className="truncate text-sm font-semibold text-zinc-900" data-testid="session-title">
          {session ? session.title || "Untitled session" : "New conversation"}
        </h1>
        {modelLabel && (
          <p className="truncate text-xs text-zinc-500" data-testid="session-model">
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
          <span role="alert" className="text-xs text-red-700" title={statusError}>
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
          className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 disabled:opacity-40"
        >
          <GearIcon />
        </button>
      </div>
    </header>
  );
}

function GearIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </svg>
  );
}
