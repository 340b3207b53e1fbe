// Messages of the open session, its compactions, and the state of the reply being sent.
// One send at a time: the composer is locked while a reply streams and unlocks as soon as
// the reply is saved (the turn's status arrived); the stream is still read after that,
// because an automatic compaction may follow in the background and report its divider.
// The send itself (posting, reading the stream, following a reply) is in conversation-stream.ts.
import { create } from "zustand";
import type { CompactionJson } from "@/lib/contract";
export { activeCompaction } from "@/lib/client/conversation-helpers";
import { carryNewDraft } from "@/lib/client/drafts";
import { describeError } from "@/lib/client/api/http";
import * as checkpointsApi from "@/lib/client/api/checkpoints";
import * as contextApi from "@/lib/client/api/context";
import * as messagesApi from "@/lib/client/api/messages";
import * as sessionsApi from "@/lib/client/api/sessions";
import { useCheckpointsStore } from "@/lib/client/checkpoints-store";
import { compactFeedback, lastTypedUserText, merge, upsertCompaction } from "@/lib/client/conversation-helpers";
import { SESSION_START, type ConversationState } from "@/lib/client/conversation-state";
import { createReplyStream } from "@/lib/client/conversation-stream";
import { toAttachments } from "@/lib/client/attachments";
import { createLiveSync } from "@/lib/client/conversation-live";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

const PAGE_SIZE = 50;

export type { Notice, SendFailure, SendPhase } from "@/lib/client/conversation-state";
/** What a slash command answered, shown above the composer rather than as a chat message. */
export type { CommandFeedback } from "@/lib/client/conversation-helpers";

export const useConversationStore = create<ConversationState>()((set, get) => {
  const isOpen = (sessionId: string) => get().sessionId === sessionId;
  const stream = createReplyStream(set, get, { refreshTail, loadHistory, afterCompaction });
  const live = createLiveSync({ isOpen, holds: (id) => stream.holds(id), refreshTail, loadHistory, delta: (d) => stream.delta(d) });

  /**
   * Re-reads the newest page so slid-out, condensed and pinned turns show what the server
   * decided. Skipped while another send streams: its half-written reply would show twice,
   * and that send refreshes when it ends anyway.
   */
  async function refreshTail(sessionId: string): Promise<void> {
    if (stream.holds(sessionId)) return;
    try {
      const page = await messagesApi.listMessages(sessionId, { limit: PAGE_SIZE });
      if (!isOpen(sessionId) || stream.holds(sessionId)) return;
      stream.adopt(sessionId, page);
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

  return {
    ...SESSION_START,
    sessionId: null,
    loading: false,
    protecting: {},
    thinkingTimes: {},

    async open(sessionId) {
      if (sessionId === get().sessionId) return;
      stream.reset();
      live.stop();
      set({ ...SESSION_START, sessionId, loading: sessionId !== null });
      useStatusStore.getState().track(sessionId);
      if (!sessionId) return;
      void useStatusStore.getState().load(sessionId);
      void loadHistory(sessionId);
      try {
        const page = await messagesApi.listMessages(sessionId, { limit: PAGE_SIZE });
        if (!isOpen(sessionId)) return;
        set({ hasMore: page.has_more, loading: false });
        stream.adopt(sessionId, page);
        // From the page's event number: whatever changed since it was read is heard.
        live.start(sessionId, page.event_seq);
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

    async ensureSession() {
      const open = get().sessionId;
      if (open) return open;
      const session = await sessionsApi.createSession();
      // What was typed in the new chat belongs to this session now.
      carryNewDraft(session.id);
      // Claim the new session before selecting it, so open() does not reset this send.
      set({ sessionId: session.id, messages: [], window: null, hasMore: false, compactions: [] });
      useStatusStore.getState().track(session.id);
      useSessionsStore.getState().upsert(session);
      useSessionsStore.getState().select(session.id);
      live.start(session.id, 0);
      return session.id;
    },

    async send(rawText, files = []) {
      const text = rawText.trim();
      if ((!text && files.length === 0) || get().phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: text, pendingFiles: files, streamingText: "", streamingBlocks: [], notices: [], sendError: null, commandFeedback: null });

      let sessionId: string;
      try {
        sessionId = await get().ensureSession();
      } catch (err) {
        set({ phase: "idle", pendingText: null, pendingFiles: [], sendError: { ...describeError(err), text, files, saved: false } });
        return;
      }
      const body: messagesApi.SendBody = { ...(text ? { content: text } : {}), ...(files.length > 0 ? { attachments: toAttachments(files) } : {}) };
      await stream.run({ sessionId, text, files, saved: false, finished: false, released: false, background: false }, body);
    },

    async retry() {
      const { sendError, messages, sessionId, phase } = get();
      if (phase !== "idle" || get().compacting) return;
      if (sendError && !sendError.saved) {
        await get().send(sendError.text, sendError.files);
        return;
      }
      // A message of files alone has no text, and is answered again all the same.
      const text = sendError?.text || lastTypedUserText(messages);
      if (!sessionId || text === null) return;
      set({ phase: "sending", pendingText: null, streamingText: "", streamingBlocks: [], notices: [], sendError: null });
      await stream.run({ sessionId, text, saved: true, finished: false, released: false, background: false }, { retry: true });
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

    async regenerate(replyId) {
      const { messages, sessionId, phase } = get();
      const text = lastTypedUserText(messages);
      if (!sessionId || text === null || phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: null, streamingText: "", streamingBlocks: [], notices: [], sendError: null, commandFeedback: null });
      await stream.run({ sessionId, text, saved: true, finished: false, released: false, background: false }, replyId ? { regenerate: true, reply_id: replyId } : { regenerate: true });
    },

    async editMessage(messageId, rawText) {
      const text = rawText.trim();
      const { sessionId, phase } = get();
      if (!sessionId || !text || phase !== "idle" || get().compacting) return;
      set({ phase: "sending", pendingText: text, streamingText: "", streamingBlocks: [], notices: [], sendError: null, commandFeedback: null });
      await stream.run({ sessionId, text, saved: false, finished: false, released: false, background: false }, { content: text, edit_of: messageId });
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