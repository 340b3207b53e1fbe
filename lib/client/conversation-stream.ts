// The send in progress of the conversation store (lib/client/conversation-store.ts): posts a
// message (or a retry, a regeneration, an edit), applies the reply's events as they stream,
// hands the composer back once the reply is saved, and follows a reply another request is
// still writing. At most one send holds the composer at a time.
import type { StoreApi } from "zustand";
import type { ApiErrorJson, CompactionJson, LiveEvent, MessageJson, SendEvent, WindowJson } from "@/lib/contract";
import { describeError, noticeStorageFull } from "@/lib/client/api/http";
import * as messagesApi from "@/lib/client/api/messages";
import { useAttachmentsStore } from "@/lib/client/attachments-store";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { merge, newIdempotencyKey } from "@/lib/client/conversation-helpers";
import type { Attempt, ConversationState } from "@/lib/client/conversation-state";
import { useMemoryStore } from "@/lib/client/memory-store";
import { createFollower, replyInProgress, settledOnly } from "@/lib/client/reply-follower";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";
import { applyBlockEvent, thinkingDurations, type TimedBlockEvent } from "@/lib/client/stream-blocks";

type ApiErrorInfo = ApiErrorJson["error"];

/** What the stream asks of the rest of the store: the server's view of the open session. */
export interface SessionView {
  refreshTail(sessionId: string): Promise<void>;
  loadHistory(sessionId: string): Promise<void>;
  afterCompaction(sessionId: string, compaction: CompactionJson): Promise<void>;
}

export interface ReplyStream {
  /** Posts one send and reads its stream to the end. */
  run(a: Attempt, body: messagesApi.SendBody): Promise<void>;
  /** Applies the newest page when this tab holds no send (see adopt below). */
  adopt(sessionId: string, page: { messages: MessageJson[]; window: WindowJson }): void;
  /** Text a reply another request writes grew by (the live stream). */
  delta(d: Extract<LiveEvent, { event: "delta" }>["data"]): void;
  /** A send of this session holds the composer. */
  holds(sessionId: string): boolean;
  /** Forgets the send that holds the composer and its buffered text (another session opens). */
  reset(): void;
}

export function createReplyStream(
  set: StoreApi<ConversationState>["setState"],
  get: StoreApi<ConversationState>["getState"],
  view: SessionView,
): ReplyStream {
  const { refreshTail, loadHistory, afterCompaction } = view;
  const isOpen = (sessionId: string) => get().sessionId === sessionId;
  /** The send that holds the composer; null once its reply is saved. */
  let active: Attempt | null = null;
  const owns = (a: Attempt) => active === a && isOpen(a.sessionId);

  // Deltas are applied at most once per frame: a long reply arrives as thousands of small
  // deltas, and re-rendering the whole text for each one makes the page crawl.
  const DELTA_FLUSH_MS = 32;
  let deltaBuffer = "";
  let deltaTimer: ReturnType<typeof setTimeout> | null = null;
  function queueDelta(a: Attempt, text: string): void {
    deltaBuffer += text;
    if (deltaTimer !== null) return;
    deltaTimer = setTimeout(() => {
      deltaTimer = null;
      const chunk = deltaBuffer;
      deltaBuffer = "";
      if (chunk && owns(a)) set((s) => ({ streamingText: s.streamingText + chunk, phase: "streaming" }));
    }, DELTA_FLUSH_MS);
  }
  // Block events (thinking, text, tool input) are batched the same way, each with the time it
  // arrived: a thinking block's duration is from its start to its stop as this client saw them.
  let blockBuffer: TimedBlockEvent[] = [];
  let blockTimer: ReturnType<typeof setTimeout> | null = null;
  function queueBlock(a: Attempt, data: TimedBlockEvent["data"]): void {
    blockBuffer.push({ data, at: Date.now() });
    if (blockTimer !== null) return;
    blockTimer = setTimeout(() => {
      blockTimer = null;
      flushBlocks(a);
    }, DELTA_FLUSH_MS);
  }
  function flushBlocks(a: Attempt): void {
    const events = blockBuffer;
    blockBuffer = [];
    if (events.length === 0 || !owns(a)) return;
    set((s) => ({
      streamingBlocks: events.reduce((blocks, e) => applyBlockEvent(blocks, e.data, e.at), s.streamingBlocks),
      phase: "streaming",
    }));
  }
  /** The saved message (or the end of the send) replaces whatever was still buffered. */
  function dropDeltas(): void {
    if (deltaTimer !== null) clearTimeout(deltaTimer);
    deltaTimer = null;
    deltaBuffer = "";
    if (blockTimer !== null) clearTimeout(blockTimer);
    blockTimer = null;
    blockBuffer = [];
  }

  function fail(a: Attempt, error: ApiErrorInfo): void {
    // Once another send holds the composer, a late error of this one must not pose as its failure.
    if (isOpen(a.sessionId) && (active === a || active === null)) {
      set({ sendError: { ...error, text: a.text, files: a.files, saved: a.saved } });
    }
  }

  /** Hands the composer back: the reply is saved and its status is known. */
  function releaseComposer(a: Attempt): void {
    if (a.released) return;
    a.released = true;
    if (owns(a)) {
      dropDeltas();
      set({ phase: "idle", pendingText: null, pendingFiles: [], streamingText: "", streamingBlocks: [] });
    }
    if (active === a) active = null;
  }

  function apply(a: Attempt, event: SendEvent): void {
    const { sessionId } = a;
    if (event.event === "user_message") a.saved = true;
    if (event.event === "done") a.finished = true;
    if (event.event === "status") {
      useStatusStore.getState().accept(event.data);
      if (!a.released) {
        const mine = owns(a);
        releaseComposer(a);
        // At the threshold after a reply the server compacts in the background (when enabled).
        if (mine && event.data.usage_percent >= event.data.threshold_percent) {
          a.background = true;
          set({ autoCompacting: true });
        }
      }
      return;
    }
    if (!isOpen(sessionId)) return;
    switch (event.event) {
      case "user_message":
        set((s) => ({
          messages: merge(s.messages, [event.data], null),
          ...(owns(a) ? { pendingText: null, pendingFiles: [], phase: "streaming" as const } : {}),
        }));
        // Only now are the files the message's: until here a failed send leaves their chips to send again.
        if (a.files?.length) useAttachmentsStore.getState().sent(sessionId, a.files.map((f) => f.id));
        break;
      case "notice":
        set((s) => ({ notices: [...s.notices, event.data] }));
        break;
      case "delta":
        if (owns(a)) queueDelta(a, event.data.text);
        break;
      case "block":
        if (owns(a)) queueBlock(a, event.data);
        break;
      case "assistant_message": {
        const mine = owns(a);
        // The reply's thinking was timed as it streamed: the saved message keeps the times.
        if (mine) flushBlocks(a);
        const times = mine ? thinkingDurations(get().streamingBlocks) : [];
        if (mine) dropDeltas();
        const id = event.data.id;
        set((s) => ({
          messages: merge(s.messages, [event.data], null),
          ...(times.length > 0 ? { thinkingTimes: { ...s.thinkingTimes, [id]: times } } : {}),
          // A tool round's next reply numbers its blocks from 0 again.
          ...(mine ? { streamingText: "", streamingBlocks: [], phase: "finishing" as const } : {}),
        }));
        break;
      }
      case "compaction":
        void afterCompaction(sessionId, event.data);
        break;
      case "memories":
        useMemoryStore.getState().acceptLoaded(sessionId, event.data.loaded);
        break;
      case "checkpoint":
        void useCheckpointsStore.getState().refresh(sessionId);
        break;
      case "canvas":
        useCanvasStore.getState().accept(sessionId, event.data);
        break;
      case "error":
        noticeStorageFull(event.data.error.code);
        fail(a, event.data.error);
        break;
      case "done":
        break;
    }
  }

  async function run(a: Attempt, body: messagesApi.SendBody): Promise<void> {
    const { sessionId } = a;
    follower.reset();
    active = a;
    try {
      for await (const event of messagesApi.streamMessage(sessionId, body, { idempotencyKey: newIdempotencyKey() })) {
        apply(a, event);
      }
      // After the status the reply is saved; a stream cut during the background compaction loses nothing.
      if (!a.finished && !a.released && !get().sendError) {
        fail(a, { code: "stream_ended", message: "The connection closed before the reply finished." });
      }
    } catch (err) {
      if (!a.released) fail(a, describeError(err));
    } finally {
      const hadStatus = a.released;
      releaseComposer(a);
      if (isOpen(sessionId)) set({ stopping: false });
      if (a.background && isOpen(sessionId)) set({ autoCompacting: false });
      await refreshTail(sessionId);
      // Without the stream's status event the bar would show the state before this send.
      if (!hadStatus || !a.finished) void useStatusStore.getState().load(sessionId);
      if (!a.finished) void loadHistory(sessionId);
      // The first turn titles the session on the server: the list shows the new title.
      void useSessionsStore.getState().refresh(sessionId);
      void useSessionsStore.getState().load();
      void useCheckpointsStore.getState().refresh(sessionId);
    }
  }

  // A reply another request writes (another tab or device, or this one before a reload).
  const follower = createFollower({
    free: (sessionId) => isOpen(sessionId) && active === null,
    progress: (text) => set({ streamingText: text }),
    done: (messages, window) => {
      const sessionId = get().sessionId;
      set((s) => ({ messages: merge(s.messages, settledOnly(messages), window), window, phase: "idle", streamingText: "", stopping: false }));
      if (!sessionId) return;
      // A tool round's next reply may already be on its way.
      const next = replyInProgress(messages);
      if (next) startFollowing(sessionId, next);
      void useStatusStore.getState().load(sessionId);
      void loadHistory(sessionId);
      void useCheckpointsStore.getState().refresh(sessionId);
    },
  });

  function startFollowing(sessionId: string, reply: MessageJson): void {
    const phase = get().phase;
    if (active !== null || (phase !== "idle" && follower.following() === null)) return;
    // A saved message never streams again (the database refuses the change), so a page showing
    // it still being written was read before a page already applied: following it would show
    // the reply twice, saved and in progress, until the next read.
    if (follower.following() !== reply.id && get().messages.some((m) => m.id === reply.id)) return;
    set({ phase: "streaming", streamingBlocks: [] });
    follower.start(sessionId, reply);
  }

  /**
   * The newest page, while no send of this tab holds the composer: saved messages merged, and a
   * reply still being written followed, never shown as a saved (and so empty) reply.
   */
  function adopt(sessionId: string, page: { messages: MessageJson[]; window: WindowJson }): void {
    if (!isOpen(sessionId) || active !== null) return;
    const inProgress = replyInProgress(page.messages);
    const followed = follower.following();
    // The followed reply is saved (or was replaced): it ends in the update that shows it saved.
    if (followed !== null && followed !== inProgress?.id) follower.settle(page);
    else set((s) => ({ messages: merge(s.messages, settledOnly(page.messages), page.window), window: page.window }));
    if (inProgress) startFollowing(sessionId, inProgress);
  }

  return {
    run,
    adopt,
    delta: (d) => follower.delta(d),
    holds: (sessionId) => active !== null && active.sessionId === sessionId,
    reset() {
      active = null;
      dropDeltas();
      follower.reset();
    },
  };
}
