// Messages of the open session, its compactions, and the state of the reply being sent.
// One send at a time: the composer is locked while a reply streams and unlocks as soon as
// the reply is saved (the turn's status arrived); the stream is still read after that,
// because an automatic compaction may follow in the background and report its divider.
import { create } from "zustand";
import type { ApiErrorJson, CompactionJson, MessageJson, SendEvent } from "@/lib/api/types";
export { activeCompaction } from "@/lib/client/conversation-helpers";
import { describeError } from "@/lib/client/api/http";
import * as checkpointsApi from "@/lib/client/api/checkpoints";
import * as contextApi from "@/lib/client/api/context";
import * as messagesApi from "@/lib/client/api/messages";
import * as sessionsApi from "@/lib/client/api/sessions";
import { useCanvasStore } from "@/lib/client/canvas-store";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import {
  compactFeedback,
  lastTypedUserText,
  merge,
  newIdempotencyKey,
  upsertCompaction,
} from "@/lib/client/conversation-helpers";
import { SESSION_START, type Attempt, type ConversationState } from "@/lib/client/conversation-state";
import { useMemoryStore } from "@/lib/client/memory-store";
import { followReply, replyInProgress } from "@/lib/client/reply-follower";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

const PAGE_SIZE = 50;

type ApiErrorInfo = ApiErrorJson["error"];

export type { Notice, SendFailure, SendPhase } from "@/lib/client/conversation-state";
/** What a slash command answered, shown above the composer rather than as a chat message. */
export type { CommandFeedback } from "@/lib/client/conversation-helpers";

export const useConversationStore = create<ConversationState>()((set, get) => {
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
  /** The saved message (or the end of the send) replaces whatever was still buffered. */
  function dropDeltas(): void {
    if (deltaTimer !== null) clearTimeout(deltaTimer);
    deltaTimer = null;
    deltaBuffer = "";
  }

  /**
   * Re-reads the newest page so slid-out, condensed and pinned turns show what the server
   * decided. Skipped while another send streams: its half-written reply would show twice,
   * and that send refreshes when it ends anyway.
   */
  async function refreshTail(sessionId: string): Promise<void> {
    if (active && active.sessionId === sessionId) return;
    try {
      const page = await messagesApi.listMessages(sessionId, { limit: PAGE_SIZE });
      if (!isOpen(sessionId) || (active && active.sessionId === sessionId)) return;
      set((s) => ({ messages: merge(s.messages, page.messages, page.window), window: page.window }));
    } catch {
      // The stream already delivered the messages; only the in-window flags may be stale.
    }
  }

  async function loadHistory(sessionId: string): Promise<void> {
    try {
      const compactions = await contextApi.compactionHistory(sessionId);
      if (isOpen(sessionId)) set({ compactions });
    } catch {
      // Dividers are a view of the history; the conversation itself still works without them.
    }
  }

  /** A compaction happened (stream event or /compact answer): divider now, then the server's view of everything. */
  async function afterCompaction(sessionId: string, compaction: CompactionJson): Promise<void> {
    if (!isOpen(sessionId)) return;
    set((s) => ({ compactions: upsertCompaction(s.compactions, compaction), autoCompacting: false }));
    // Every compaction is preceded by a pre_compaction checkpoint: the timeline shows it.
    await Promise.all([refreshTail(sessionId), loadHistory(sessionId), useCheckpointsStore.getState().refresh(sessionId)]);
  }

  function fail(a: Attempt, error: ApiErrorInfo): void {
    // Once another send holds the composer, a late error of this one must not pose as its failure.
    if (isOpen(a.sessionId) && (active === a || active === null)) {
      set({ sendError: { ...error, text: a.text, saved: a.saved } });
    }
  }

  /** Hands the composer back: the reply is saved and its status is known. */
  function releaseComposer(a: Attempt): void {
    if (a.released) return;
    a.released = true;
    if (owns(a)) {
      dropDeltas();
      set({ phase: "idle", pendingText: null, streamingText: "" });
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
          ...(owns(a) ? { pendingText: null, phase: "streaming" as const } : {}),
        }));
        break;
      case "notice":
        set((s) => ({ notices: [...s.notices, event.data] }));
        break;
      case "delta":
        if (owns(a)) queueDelta(a, event.data.text);
        break;
      case "assistant_message":
        if (owns(a)) dropDeltas();
        set((s) => ({
          messages: merge(s.messages, [event.data], null),
          ...(owns(a) ? { streamingText: "", phase: "finishing" as const } : {}),
        }));
        break;
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
        fail(a, event.data.error);
        break;
      case "done":
        break;
    }
  }

  async function run(a: Attempt, body: messagesApi.SendBody): Promise<void> {
    const { sessionId } = a;
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

  /** Shows a reply another request is still writing, and hands the composer back once it is saved. */
  async function follow(sessionId: string, reply: MessageJson): Promise<void> {
    const following = () => isOpen(sessionId) && active === null && get().phase === "streaming";
    await followReply(sessionId, reply, {
      stillFollowing: following,
      progress: (text) => set({ streamingText: text }),
      done: (messages, window) => {
        set((s) => ({ messages: merge(s.messages, messages, window), window, phase: "idle", streamingText: "", stopping: false }));
        void useStatusStore.getState().load(sessionId);
        void loadHistory(sessionId);
        void useCheckpointsStore.getState().refresh(sessionId);
      },
    });
  }

  return {
    ...SESSION_START,
    sessionId: null,
    loading: false,
    protecting: {},

    async open(sessionId) {
      if (sessionId === get().sessionId) return;
      active = null;
      dropDeltas();
      set({ ...SESSION_START, sessionId, loading: sessionId !== null });
      useStatusStore.getState().track(sessionId);
      if (!sessionId) return;
      void useStatusStore.getState().load(sessionId);
      void loadHistory(sessionId);
      try {
        const page = await messagesApi.listMessages(sessionId, { limit: PAGE_SIZE });
        if (!isOpen(sessionId)) return;
        const inProgress = replyInProgress(page.messages);
        set((s) => ({
          messages: merge(s.messages, page.messages.filter((m) => m !== inProgress), page.window),
          window: page.window,
          hasMore: page.has_more,
          loading: false,
          ...(inProgress ? { phase: "streaming" as const } : {}),
        }));
        if (inProgress) void follow(sessionId, inProgress);
      } catch (err) {
        if (isOpen(sessionId)) set({ loading: false, loadError: describeError(err).message });
      }
    },

    async loadOlder() {
      const { sessionId, messages, hasMore, loadingOlder } = get();
      if (!sessionId || !hasMore || loadingOlder || messages.length === 0) return;
      set({ loadingOlder: true });
      try {
        const page = await messagesApi.listMessages(sessionId, { beforeSeq: messages[0].seq, limit: PAGE_SIZE });
        if (!isOpen(sessionId)) return;
        set((s) => ({
          messages: merge(s.messages, page.messages, null),
          hasMore: page.has_more,
          loadingOlder: false,
        }));
      } catch (err) {
        if (isOpen(sessionId)) set({ loadingOlder: false, loadError: describeError(err).message });
      }
    },

    async send(rawText) {
      const text = rawText.trim();
      if (!text || get().phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: text, streamingText: "", notices: [], sendError: null, commandFeedback: null });

      let sessionId = get().sessionId;
      if (!sessionId) {
        try {
          const session = await sessionsApi.createSession();
          sessionId = session.id;
          // Claim the new session before selecting it, so open() does not reset this send.
          set({ sessionId, messages: [], window: null, hasMore: false, compactions: [] });
          useStatusStore.getState().track(sessionId);
          useSessionsStore.getState().upsert(session);
          useSessionsStore.getState().select(sessionId);
        } catch (err) {
          set({ phase: "idle", pendingText: null, sendError: { ...describeError(err), text, saved: false } });
          return;
        }
      }
      await run({ sessionId, text, saved: false, finished: false, released: false, background: false }, { content: text });
    },

    async retry() {
      const { sendError, messages, sessionId, phase } = get();
      if (phase !== "idle" || get().compacting) return;
      if (sendError && !sendError.saved) {
        await get().send(sendError.text);
        return;
      }
      const text = sendError?.text || lastTypedUserText(messages);
      if (!sessionId || !text) return;
      set({ phase: "sending", pendingText: null, streamingText: "", notices: [], sendError: null });
      await run({ sessionId, text, saved: true, finished: false, released: false, background: false }, { retry: true });
    },

    async stop() {
      const { sessionId, phase, stopping } = get();
      if (!sessionId || phase === "idle" || stopping) return;
      set({ stopping: true });
      try {
        await messagesApi.stopReply(sessionId);
      } catch {
        // 409: the reply had just finished, and its stream ends on its own; otherwise Stop can be pressed again.
        if (isOpen(sessionId)) set({ stopping: false });
      }
    },

    async regenerate() {
      const { messages, sessionId, phase } = get();
      const text = lastTypedUserText(messages);
      if (!sessionId || !text || phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: null, streamingText: "", notices: [], sendError: null, commandFeedback: null });
      await run({ sessionId, text, saved: true, finished: false, released: false, background: false }, { regenerate: true });
    },

    async editLast(messageId, rawText) {
      const text = rawText.trim();
      const { sessionId, phase } = get();
      if (!sessionId || !text || phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: text, streamingText: "", notices: [], sendError: null, commandFeedback: null });
      await run({ sessionId, text, saved: false, finished: false, released: false, background: false }, { content: text, edit_of: messageId });
    },

    async toggleProtect(message) {
      const { sessionId } = get();
      if (!sessionId || get().protecting[message.id]) return;
      set((s) => ({ protecting: { ...s.protecting, [message.id]: true }, protectError: null }));
      try {
        const updated = await contextApi.setProtected(sessionId, message.id, !message.protected);
        if (isOpen(sessionId)) set((s) => ({ messages: merge(s.messages, [updated], null) }));
        // Protecting can pin a turn back into the window and change what the next request holds.
        await refreshTail(sessionId);
        void useStatusStore.getState().load(sessionId);
      } catch (err) {
        if (isOpen(sessionId)) set({ protectError: describeError(err).message });
      } finally {
        set((s) => {
          const { [message.id]: _, ...rest } = s.protecting;
          return { protecting: rest };
        });
      }
    },

    async compact(request = {}) {
      const { sessionId, phase, compacting } = get();
      if (phase !== "idle" || compacting) return;
      if (!sessionId) {
        set({ commandFeedback: { tone: "info", code: "no_session", message: "Nothing to condense yet: start the conversation first." } });
        return;
      }
      set({ compacting: true, commandFeedback: null, sendError: null });
      try {
        const result = await contextApi.compact(sessionId, request);
        if (!isOpen(sessionId)) return;
        useStatusStore.getState().accept(result.status);
        await afterCompaction(sessionId, result.compaction);
      } catch (err) {
        if (isOpen(sessionId)) set({ commandFeedback: compactFeedback(describeError(err)) });
      } finally {
        if (isOpen(sessionId)) set({ compacting: false });
      }
    },

    async undoCompaction(compactionId) {
      const { sessionId, phase, compacting } = get();
      if (!sessionId || phase !== "idle" || compacting || get().undoing[compactionId]) return;
      set((s) => ({ undoing: { ...s.undoing, [compactionId]: true }, undoError: null }));
      try {
        const result = await contextApi.undoCompaction(compactionId);
        if (!isOpen(sessionId)) return;
        useStatusStore.getState().accept(result.status);
        set((s) => ({ compactions: upsertCompaction(s.compactions, result.compaction) }));
        // The condensed turns are back in the window: the server's messages, status and history say how.
        await Promise.all([refreshTail(sessionId), loadHistory(sessionId), useStatusStore.getState().load(sessionId)]);
      } catch (err) {
        if (isOpen(sessionId)) set({ undoError: describeError(err).message });
      } finally {
        set((s) => {
          const { [compactionId]: _, ...rest } = s.undoing;
          return { undoing: rest };
        });
      }
    },

    setCommandFeedback(feedback) {
      set({ commandFeedback: feedback });
    },

    async saveCheckpoint(label) {
      const { sessionId } = get();
      if (!sessionId) {
        set({ commandFeedback: { tone: "info", code: "no_session", message: "Nothing to save yet: start the conversation first." } });
        return;
      }
      set({ commandFeedback: { tone: "info", code: "saving", message: "Saving checkpoint…" } });
      try {
        const cp = await checkpointsApi.saveCheckpoint(sessionId, label);
        if (!isOpen(sessionId)) return;
        const parts = ["Checkpoint saved", cp.id.slice(0, 8), ...(cp.label ? [cp.label] : [])];
        set({ commandFeedback: { tone: "info", code: "ok", message: parts.join(" · ") } });
        await useCheckpointsStore.getState().refresh(sessionId);
      } catch (err) {
        const e = describeError(err);
        if (isOpen(sessionId)) set({ commandFeedback: { tone: "error", code: e.code, message: `Checkpoint not saved: ${e.message}` } });
      }
    },
  };
});
