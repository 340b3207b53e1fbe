"use client";
// The conversation: saved messages (with the cutoff marker where Claude's view begins and
// a divider where each compaction happened), then the message being sent and the reply
// streaming in.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { MessagesSquare } from "lucide-react";
import type { CompactionJson, MessageJson, WindowJson } from "@/lib/contract";
import { FIRST_TURN_SEQ } from "@/lib/context/turns";
import { activeCompaction, useConversationStore } from "@/lib/client/conversation-store";
import { replacedIds } from "@/lib/client/conversation-helpers";
import { offeredVersions, versionView, type VersionPicks } from "@/lib/client/versions";
import { templateNames, useTemplatesStore } from "@/lib/client/templates-store";
import { CompactionDivider } from "@/components/context/CompactionDivider";
import { CompactionProgress } from "@/components/context/CompactionProgress";
import { CutoffMarker } from "@/components/context/CutoffMarker";
import { MessageItem, type MessagePlacement } from "@/components/chat/MessageItem";
import { PendingUserMessage } from "@/components/chat/PendingUserMessage";
import { SendErrorNotice } from "@/components/chat/SendErrorNotice";
import { SendNotices } from "@/components/chat/SendNotices";
import { StreamingReply } from "@/components/chat/StreamingReply";
import { LaunchEmpty } from "@/components/sessions/LaunchEmpty";
import { LoadedMemoriesLine } from "@/components/memory/LoadedMemoriesLine";
import { ToolResultsItem } from "@/components/chat/ToolResultsItem";
import type { ToolUseBlock } from "@/lib/context/types";

/** Within this many pixels of the bottom, new content keeps the view pinned to the bottom. */
const STICK_PX = 120;
/** Within this many pixels of the top, scrolling up fetches the previous page. */
const LOAD_OLDER_PX = 80;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user message the app wrote: the answers to a reply's tool calls, nothing typed. */
function isToolResults(m: MessageJson): boolean {
  return m.role === "user" && m.content.length > 0 && m.content.every((b) => b.type === "tool_result");
}

function toolUsesOf(m: MessageJson | undefined): ToolUseBlock[] {
  return m?.role === "assistant" ? m.content.filter((b): b is ToolUseBlock => b.type === "tool_use") : [];
}

/** `condensedThrough`: the last turn the active summary stands in for (0 when there is none). */
function placementOf(m: MessageJson, window: WindowJson | null, condensedThrough = 0): MessagePlacement {
  const firstTurn = m.turn_seq === FIRST_TURN_SEQ;
  return {
    firstTurn,
    keptBeforeCutoff: m.in_window && window !== null && m.turn_seq < window.cutoff_turn_seq,
    condensed: !m.in_window && m.turn_seq <= condensedThrough,
  };
}

/**
 * Where each divider goes: after the message whose seq is the compaction's at_seq (or the
 * last loaded one before it). A compaction older than every loaded message waits for its
 * page, unless nothing older exists.
 */
function dividerSlots(messages: MessageJson[], compactions: CompactionJson[], hasMore: boolean): Map<number, CompactionJson[]> {
  const slots = new Map<number, CompactionJson[]>();
  for (const c of compactions) {
    let at = -2;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].seq <= c.at_seq) {
        at = i;
        break;
      }
    }
    if (at === -2) {
      if (hasMore) continue;
      at = -1;
    }
    slots.set(at, [...(slots.get(at) ?? []), c]);
  }
  return slots;
}

/**
 * The marker goes before the first in-window message that follows slid-out ones. Pinned
 * turns before the cutoff are in the window too, but Claude's continuous view starts
 * after them, so they do not take the marker.
 */
function cutoffIndex(messages: MessageJson[], window: WindowJson | null, replaced: ReadonlySet<string>): number {
  let sawOutOfView = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    // An earlier version is out of view because it was replaced, not because it slid out.
    if (replaced.has(m.id)) continue;
    if (!m.in_window) sawOutOfView = true;
    else if (sawOutOfView && !placementOf(m, window).keptBeforeCutoff) return i;
  }
  return -1;
}

export function MessageList() {
  const messages = useConversationStore((s) => s.messages);
  const contextWindow = useConversationStore((s) => s.window);
  const hasMore = useConversationStore((s) => s.hasMore);
  const loading = useConversationStore((s) => s.loading);
  const loadingOlder = useConversationStore((s) => s.loadingOlder);
  const loadError = useConversationStore((s) => s.loadError);
  const phase = useConversationStore((s) => s.phase);
  const pendingText = useConversationStore((s) => s.pendingText);
  const pendingFiles = useConversationStore((s) => s.pendingFiles);
  const streamingText = useConversationStore((s) => s.streamingText);
  const streamingBlocks = useConversationStore((s) => s.streamingBlocks);
  const thinkingTimes = useConversationStore((s) => s.thinkingTimes);
  const notices = useConversationStore((s) => s.notices);
  const sendError = useConversationStore((s) => s.sendError);
  const protecting = useConversationStore((s) => s.protecting);
  const protectError = useConversationStore((s) => s.protectError);
  const sessionId = useConversationStore((s) => s.sessionId);
  // Which version of an edited or regenerated turn is shown, per session.
  const [chosen, setChosen] = useState<{ session: string | null; picks: VersionPicks }>({ session: null, picks: NO_PICKS });
  const pickVersion = useCallback(
    (slot: string, index: number, count: number) =>
      setChosen((c) => ({ session: sessionId, picks: { ...(c.session === sessionId ? c.picks : NO_PICKS), [slot]: { index, count } } })),
    [sessionId],
  );
  const loadOlder = useConversationStore((s) => s.loadOlder);
  const retry = useConversationStore((s) => s.retry);
  const toggleProtect = useConversationStore((s) => s.toggleProtect);
  const compactions = useConversationStore((s) => s.compactions);
  const compacting = useConversationStore((s) => s.compacting);
  const autoCompacting = useConversationStore((s) => s.autoCompacting);
  const undoing = useConversationStore((s) => s.undoing);
  const undoError = useConversationStore((s) => s.undoError);
  const undoCompaction = useConversationStore((s) => s.undoCompaction);
  const regenerate = useConversationStore((s) => s.regenerate);
  const editMessage = useConversationStore((s) => s.editMessage);
  const templates = useTemplatesStore((s) => s.templates);
  const templatesLoaded = useTemplatesStore((s) => s.loaded);

  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // Distance from the bottom before older messages were prepended, to keep the view still.
  const prependAnchor = useRef<number | null>(null);

  // Stable across renders, so saved messages skip re-rendering while a reply streams.
  const onToggleProtect = useCallback((m: MessageJson) => void toggleProtect(m), [toggleProtect]);
  const onRetry = useCallback(() => void retry(), [retry]);
  const onRegenerate = useCallback((replyId: string) => void regenerate(replyId), [regenerate]);
  const onEdit = useCallback((id: string, text: string) => void editMessage(id, text), [editMessage]);

  const requestOlder = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasMore || loadingOlder) return;
    prependAnchor.current = el.scrollHeight - el.scrollTop;
    void loadOlder();
  }, [hasMore, loadingOlder, loadOlder]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < LOAD_OLDER_PX) requestOlder();
  }, [requestOlder]);

  // A new session, or the user sending, always brings the bottom into view.
  useLayoutEffect(() => {
    stickToBottom.current = true;
  }, [sessionId]);
  useLayoutEffect(() => {
    if (phase === "sending") stickToBottom.current = true;
  }, [phase]);

  const firstSeq = messages[0]?.seq;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (prependAnchor.current !== null && !loadingOlder) {
      el.scrollTop = el.scrollHeight - prependAnchor.current;
      prependAnchor.current = null;
      return;
    }
    if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [firstSeq, messages, streamingText, streamingBlocks, pendingText, notices, sendError, loadingOlder, loading, compactions, compacting]);

  // Dividers name the saved template a summary used; the names come with the template list.
  const needsTemplateNames = compactions.some((c) => UUID_RE.test(c.template));
  useEffect(() => {
    if (needsTemplateNames && !templatesLoaded) void useTemplatesStore.getState().load();
  }, [needsTemplateNames, templatesLoaded]);
  const names = useMemo(() => templateNames(templates), [templates]);

  const idle = phase === "idle";
  const active = activeCompaction(compactions);
  const condensedThrough = active?.through_turn ?? 0;

  const replaced = useMemo(() => replacedIds(messages), [messages]);
  const cutoffAt = useMemo(() => cutoffIndex(messages, contextWindow, replaced), [messages, contextWindow, replaced]);
  const cutoffReason = cutoffAt > 0 && messages[cutoffAt - 1].turn_seq <= condensedThrough ? "condensed" : "slid";
  const slots = useMemo(() => dividerSlots(messages, compactions, hasMore), [messages, compactions, hasMore]);
  const divider = (c: CompactionJson) => (
    <CompactionDivider
      key={c.id}
      compaction={c}
      undoing={Boolean(undoing[c.id])}
      undoDisabled={!idle || compacting}
      onUndo={() => void undoCompaction(c.id)}
      templateNames={names}
    />
  );
  const renderDividers = (index: number) => slots.get(index)?.map(divider);
  const last = messages[messages.length - 1];
  // The first message is what loaded memories of earlier sessions (only when it is on the page).
  const firstUserId = !hasMore ? messages.find((m) => m.role === "user")?.id : undefined;
  const picks = chosen.session === sessionId ? chosen.picks : NO_PICKS;
  const view = useMemo(() => versionView(messages, picks), [messages, picks]);
  const versionsFor = useMemo(() => offeredVersions(messages, replaced, condensedThrough), [messages, replaced, condensedThrough]);
  const versionsDisabled = !idle || compacting;
  const empty = !loading && messages.length === 0 && pendingText === null && phase === "idle";

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      data-testid="message-list"
      className="flex-1 overflow-y-auto overscroll-contain"
    >
      <div className="mx-auto flex max-w-4xl flex-col gap-5 px-4 py-6">
        {hasMore && (
          <div className="flex justify-center">
            <button
              type="button"
              data-testid="load-earlier"
              onClick={requestOlder}
              disabled={loadingOlder}
              className="rounded-full border border-zinc-200 dark:border-zinc-800 bg-white dark:bg-zinc-900 px-3 py-1 text-xs text-zinc-600 dark:text-zinc-400 hover:bg-zinc-50 dark:hover:bg-zinc-800 disabled:opacity-60"
            >
              {loadingOlder ? "Loading…" : "Load earlier messages"}
            </button>
          </div>
        )}
        {loading && <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">Loading conversation…</p>}
        {loadError && (
          <p role="alert" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
            {loadError}
          </p>
        )}
        {empty && (sessionId === null ? <LaunchEmpty /> : <EmptyConversation />)}
        {renderDividers(-1)}
        {messages.map((m, i) => (
          <div key={m.id} className="contents">
            {/* One compaction, one marker: its divider says where it happened and the condensed
                turns are dimmed, so only turns that slid out get a "view begins here" line. */}
            {i === cutoffAt && cutoffReason === "slid" && <CutoffMarker />}
            {view.hidden.has(m.id) ? null : isToolResults(m) ? (
              <ToolResultsItem message={m} uses={toolUsesOf(messages[i - 1])} />
            ) : (
              <MessageItem
                message={m}
                placement={{ ...placementOf(m, contextWindow, condensedThrough), replaced: replaced.has(m.id) }}
                protecting={Boolean(protecting[m.id])}
                onToggleProtect={onToggleProtect}
                retry={m === last && m.status === "interrupted" && !sendError ? { disabled: !idle, onRetry } : null}
                versions={
                  versionsFor.edit.has(m.id)
                    ? { disabled: versionsDisabled, onEdit }
                    : versionsFor.regenerate.has(m.id)
                      ? { disabled: versionsDisabled, onRegenerate }
                      : null
                }
                switcher={view.switchers.get(m.id) ?? null}
                onPickVersion={pickVersion}
                thinkingMs={thinkingTimes[m.id]}
              />
            )}
            {m.id === firstUserId && sessionId && <LoadedMemoriesLine sessionId={sessionId} />}
            {renderDividers(i)}
          </div>
        ))}
        {undoError && (
          <p role="alert" data-testid="undo-error" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
            Could not undo the compaction: {undoError}
          </p>
        )}
        {protectError && (
          <p role="alert" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
            Could not change protection: {protectError}
          </p>
        )}
        {pendingText !== null && <PendingUserMessage text={pendingText} files={pendingFiles} />}
        <SendNotices notices={notices} />
        {(phase === "sending" || phase === "streaming") && <StreamingReply text={streamingText} blocks={streamingBlocks} />}
        {sendError && <SendErrorNotice error={sendError} retryDisabled={!idle} onRetry={onRetry} />}
        {compacting ? <CompactionProgress kind="manual" /> : autoCompacting && <CompactionProgress kind="auto" />}
      </div>
    </div>
  );
}

const NO_PICKS: VersionPicks = {};

function EmptyConversation() {
  return (
    <div className="mx-auto mt-16 flex max-w-md flex-col items-center text-center text-sm text-zinc-500 dark:text-zinc-400">
      <span className="mb-4 flex h-12 w-12 items-center justify-center rounded-2xl bg-white text-zinc-700 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-800">
        <MessagesSquare aria-hidden className="h-6 w-6" />
      </span>
      <p className="text-base font-medium text-zinc-800 dark:text-zinc-200">No messages yet</p>
      <p className="mt-2 leading-relaxed">
        The bar in the header shows how full Claude&apos;s context window is. Pin a message to keep it in view however
        long the conversation gets.
      </p>
    </div>
  );
}
