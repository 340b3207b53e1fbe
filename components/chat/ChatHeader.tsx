"use client";
// Title, model (a picker) and the token bar of the open session, plus the way into its settings.
// The width is the chat column's (a container query on <main>), not the window's. Beside a side
// panel (a chat column of 36–56rem) everything stays on one row in compact forms: the token bar
// gives its percentage only, Checkpoints an icon and its count. Only a phone-wide column takes
// two rows: the title with the menu and settings buttons, so the title keeps most of the width,
// then the token bar with the other controls; the right-hand group dissolves into the header's
// own flex rows for it.
import { Menu, Settings } from "lucide-react";
import { getModel } from "@/lib/models";
import { useCurrentSession } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { useConversationStore } from "@/lib/client/conversation-store";
import { ModelPicker } from "@/components/chat/ModelPicker";
import { TokenBar } from "@/components/context/TokenBar";
import { MemoryButton } from "@/components/memory/MemoryButton";
import { CanvasButton } from "@/components/canvas/CanvasButton";
import { CheckpointsButton, ForkedFromLink, ProjectSelect } from "@/components/sessions/SessionHeaderControls";

export function ChatHeader({ onOpenSettings, onToggleSidebar }: { onOpenSettings(): void; onToggleSidebar(): void }) {
  const session = useCurrentSession();
  const status = useStatusStore((s) => s.status);
  const statusError = useStatusStore((s) => s.error);
  const modelId = status?.model ?? session?.model ?? null;
  const modelLabel = modelId ? (getModel(modelId)?.label ?? modelId) : null;
  // The next reply's model; not switched under one being written.
  const sending = useConversationStore((s) => s.phase !== "idle");

  return (
    <header data-testid="chat-header" className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-zinc-200 bg-white px-3 py-2 sm:px-4 sm:py-2.5 @4xl:gap-x-4 dark:border-zinc-800 dark:bg-zinc-900">
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label="Show sessions"
        className="rounded p-1 text-zinc-600 dark:text-zinc-400 hover:bg-zinc-100 dark:hover:bg-zinc-800 md:hidden"
      >
        <Menu aria-hidden className="h-5 w-5" />
      </button>
      <div className="min-w-0 flex-1 @xl:min-w-[6rem] @4xl:min-w-[8rem]">
        <h1 className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-100" data-testid="session-title">
          {session ? session.title || "Untitled session" : "New conversation"}
        </h1>
        {session && modelId ? (
          <ModelPicker sessionId={session.id} model={modelId} disabled={sending} />
        ) : (
          modelLabel && (
            <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" data-testid="session-model">
              {modelLabel}
            </p>
          )
        )}
        <ForkedFromLink />
      </div>
      <div className="flex min-w-0 shrink-0 items-center justify-end gap-2 @max-4xl:gap-1.5 @max-xl:contents">
        <ProjectSelect className="@max-xl:order-3" />
        <div className="@max-xl:order-3">
          <CheckpointsButton />
        </div>
        {/* Ends the first row on a phone: the settings button stays beside the title. */}
        <div aria-hidden className="hidden @max-xl:order-1 @max-xl:block @max-xl:h-0 @max-xl:basis-full" />
        <div className="min-w-0 @max-xl:order-2 @max-xl:flex-1">
          <TokenBar status={status} />
        </div>
        {statusError && (
          <span role="alert" className="text-xs text-red-700 @max-xl:order-3 dark:text-red-400" title={statusError}>
            Status unavailable
          </span>
        )}
        <div className="flex items-center gap-2 @max-4xl:gap-1 @max-xl:order-3">
          <CanvasButton />
          <MemoryButton />
        </div>
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

