"use client";
// The conversation: saved messages (with the cutoff marker where Claude's view begins and
// a divider where each compaction happened), then the message being sent and the reply
// streaming in.
//
// Virtualised (TanStack Virtual): only the rows near the viewport are in the DOM, so a
// 5,000-message session scrolls as lightly as a short one. Each saved message is one row,
// measured once drawn; what comes before the messages (load earlier, errors) and after them
// (the message being sent, the streaming reply, notices) is ordinary content around the rows.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { MessagesSquare } from "lucide-react";
import type { CompactionJson, MessageJson } from "@/lib/contract";
import { activeCompaction, useConversationStore } from "@/lib/client/conversation-store";
import { replacedIds } from "@/lib/client/conversation-helpers";
import { registerListNavigator } from "@/lib/client/list-navigator";
import { offeredVersions, versionView, type VersionPicks } from "@/lib/client/versions";
import { templateNames, useTemplatesStore } from "@/lib/client/templates-store";
import { CompactionDivider } from "@/components/context/CompactionDivider";
import { CompactionProgress } from "@/components/context/CompactionProgress";
import { CutoffMarker } from "@/components/context/CutoffMarker";
import { MessageItem } from "@/components/chat/MessageItem";
import { JumpToLatest } from "@/components/chat/JumpToLatest";
import { PendingUserMessage } from "@/components/chat/PendingUserMessage";
import { SendErrorNotice } from "@/components/chat/SendErrorNotice";
import { SendNotices } from "@/components/chat/SendNotices";
import { StreamingReply } from "@/components/chat/StreamingReply";
import { LaunchEmpty } from "@/components/sessions/LaunchEmpty";
import { LoadedMemoriesLine } from "@/components/memory/LoadedMemoriesLine";
import { ToolResultsItem } from "@/components/chat/ToolResultsItem";
import { cutoffIndex, dividerSlots, isToolResults, newSince, placementOf, toolUsesOf } from "@/components/chat/list-layout";

/** Within this many pixels of the bottom, new content keeps the view pinned to the bottom. */
const STICK_PX = 120;
/** Further than this from the bottom, "Jump to latest" is offered. */
const AWAY_PX = 240;
/** Within this many pixels of the top, scrolling up fetches the previous page. */
const LOAD_OLDER_PX = 80;
/** A row's height before it is drawn and measured: a short exchange. */
const ESTIMATE_PX = 160;
/** Rows drawn beyond each edge of the viewport, so a scroll shows drawn rows, not blanks. */
const OVERSCAN = 4;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const head = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // The newest message the reader has been at the bottom with; later ones count as new.
  const [seenSeq, setSeenSeq] = useState(0);
  const [away, setAway] = useState(false);
  const [headHeight, setHeadHeight] = useState(0);
  const lastSeq = messages.at(-1)?.seq ?? 0;
  const lastSeqRef = useRef(lastSeq);
  lastSeqRef.current = lastSeq;

  const getItemKey = useCallback((i: number) => messages[i]?.id ?? i, [messages]);
  const estimateSize = useCallback(() => ESTIMATE_PX, []);
  const getScrollElement = useCallback(() => scroller.current, []);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN,
    // The rows start below the head; the head's height is where their offsets begin.
    scrollMargin: headHeight,
    // Chat-style: when older pages are prepended, the row in view stays where it is.
    anchorTo: "end",
  });

  // Stable across renders, so saved messages skip re-rendering while a reply streams.
  const onToggleProtect = useCallback((m: MessageJson) => void toggleProtect(m), [toggleProtect]);
  const onRetry = useCallback(() => void retry(), [retry]);
  const onRegenerate = useCallback((replyId: string) => void regenerate(replyId), [regenerate]);
  const onEdit = useCallback((id: string, text: string) => void editMessage(id, text), [editMessage]);

  const requestOlder = useCallback(() => {
    if (!hasMore || loadingOlder) return;
    void loadOlder();
  }, [hasMore, loadingOlder, loadOlder]);

  const scrollToBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    stickToBottom.current = fromBottom < STICK_PX;
    setAway(fromBottom > AWAY_PX);
    if (stickToBottom.current) setSeenSeq(lastSeqRef.current);
    if (el.scrollTop < LOAD_OLDER_PX) requestOlder();
  }, [requestOlder]);

  // A new session, or the user sending, always brings the bottom into view.
  useLayoutEffect(() => {
    stickToBottom.current = true;
    setAway(false);
    setSeenSeq(0);
  }, [sessionId]);
  useLayoutEffect(() => {
    if (phase !== "sending") return;
    stickToBottom.current = true;
    scrollToBottom();
  }, [phase, scrollToBottom]);
  // Pinned to the bottom, whatever arrives is seen; the first page counts as seen too.
  useEffect(() => {
    if (stickToBottom.current) setSeenSeq(lastSeq);
  }, [lastSeq]);

  // Rows are measured after they are drawn and the reply grows as it streams: whenever the
  // content's height changes, a list pinned to the bottom follows it.
  useLayoutEffect(() => {
    const box = content.current;
    if (!box) return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current) scrollToBottom();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // The head (load earlier, errors) sits above the rows; when it changes height while the
  // reader is up in the history, the view moves by as much so the rows in view stay still.
  useLayoutEffect(() => {
    const box = head.current;
    if (!box) return;
    let last = box.offsetHeight;
    setHeadHeight(last);
    const observer = new ResizeObserver(() => {
      const height = box.offsetHeight;
      const el = scroller.current;
      if (el && !stickToBottom.current && el.scrollTop > 0) el.scrollTop += height - last;
      last = height;
      setHeadHeight(height);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // A jump (search, a fact's source) asks the list to draw a loaded message's row.
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  useEffect(
    () =>
      registerListNavigator({
        showSeq(seq) {
          const index = messagesRef.current.findIndex((m) => m.seq === seq);
          if (index < 0) return false;
          stickToBottom.current = false;
          virtualizer.scrollToIndex(index, { align: "start" });
          return true;
        },
        scrollTo(scrollTop) {
          stickToBottom.current = false;
          virtualizer.scrollToOffset(scrollTop);
        },
      }),
    [virtualizer],
  );

  const jumpToLatest = useCallback(() => {
    stickToBottom.current = true;
    setAway(false);
    setSeenSeq(lastSeqRef.current);
    scrollToBottom();
    // The button goes away under the keyboard's focus: the composer is where a reader goes next.
    document.querySelector<HTMLElement>('[data-testid="composer-input"]')?.focus({ preventScroll: true });
  }, [scrollToBottom]);

  // Dividers name the saved template a summary used; the names come with the template list.
  const needsTemplateNames = compactions.some((c) => UUID_RE.test(c.template));
  useEffect(() => {
    if (needsTemplateNames && !templatesLoaded) void useTemplatesStore.getState().load();
  }, [needsTemplateNames, templatesLoaded]);
  const names = useMemo(() => templateNames(templates), [templates]);

  const idle = phase === "idle";
  const streaming = phase === "sending" || phase === "streaming";
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
  const newCount = away ? newSince(messages, seenSeq, view.hidden) : 0;

  const row = (m: MessageJson, i: number) => (
    <>
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
    </>
  );

  const lane = "mx-auto flex max-w-4xl flex-col gap-5 px-4";
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        onScroll={onScroll}
        data-testid="message-list"
        data-loaded-count={messages.length}
        className="flex-1 overflow-y-auto overscroll-contain [overflow-anchor:none]"
      >
        <div ref={content}>
          <div ref={head} className={`${lane} pt-6 ${hasMore || loading || loadError || empty || slots.has(-1) ? "pb-5" : ""}`}>
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
          </div>
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const m = messages[item.index];
              if (!m) return null;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 top-0 w-full"
                  style={{ transform: `translateY(${item.start - headHeight}px)` }}
                >
                  {/* Empty rows (a hidden version) take no space; the others keep the gap below them. */}
                  <div className={`${lane} ${view.hidden.has(m.id) && !slots.has(item.index) ? "" : "pb-5"}`}>{row(m, item.index)}</div>
                </div>
              );
            })}
          </div>
          <div className={`${lane} pb-6`}>
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
            {streaming && <StreamingReply text={streamingText} blocks={streamingBlocks} />}
            {sendError && <SendErrorNotice error={sendError} retryDisabled={!idle} onRetry={onRetry} />}
            {compacting ? <CompactionProgress kind="manual" /> : autoCompacting && <CompactionProgress kind="auto" />}
          </div>
        </div>
      </div>
      {away && messages.length > 0 && <JumpToLatest newCount={newCount} streaming={streaming} onJump={jumpToLatest} />}
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
