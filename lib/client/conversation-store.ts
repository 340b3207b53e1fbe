// Messages of the open session and the state of the reply being sent. One send at a
// time: the composer is disabled while a reply streams, which keeps turns in order.
import { create } from "zustand";
import type { ApiErrorJson, MessageJson, SendEvent, WindowJson } from "@/lib/api/types";
import * as api from "@/lib/client/api";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useStatusStore } from "@/lib/client/status-store";

export const PAGE_SIZE = 50;

/** "finishing": the reply is saved; status and done are still to come. */
export type SendPhase = "idle" | "sending" | "streaming" | "finishing";

export interface Notice {
  kind: string;
  message: string;
}

type ApiErrorInfo = ApiErrorJson["error"];

export interface SendFailure extends ApiErrorInfo {
  /** The text that was being sent. */
  text: string;
  /**
   * The server saved the user message before failing: Retry asks it to answer that
   * message again instead of posting a duplicate.
   */
  saved: boolean;
}

/** One POST of a message (or a retry) and what its stream has told us so far. */
interface Attempt {
  sessionId: string;
  text: string;
  saved: boolean;
  finished: boolean;
}

interface ConversationState {
  sessionId: string | null;
  messages: MessageJson[];
  window: WindowJson | null;
  hasMore: boolean;
  loading: boolean;
  loadingOlder: boolean;
  loadError: string | null;

  phase: SendPhase;
  /** Typed text shown until the server confirms it as a saved user message. */
  pendingText: string | null;
  /** Reply text streamed so far, until the saved assistant message replaces it. */
  streamingText: string;
  notices: Notice[];
  sendError: SendFailure | null;

  protecting: Record<string, boolean>;
  protectError: string | null;

  open(sessionId: string | null): Promise<void>;
  loadOlder(): Promise<void>;
  send(text: string): Promise<void>;
  retry(): Promise<void>;
  toggleProtect(message: MessageJson): Promise<void>;
}

/** The server's rule for which turns Claude still sees (see WindowJson). */
export function isInWindow(turnSeq: number, window: WindowJson): boolean {
  return turnSeq >= window.cutoff_turn_seq || window.pinned_turn_seqs.includes(turnSeq);
}

/**
 * Merges messages by id (incoming wins) in seq order. Messages the server did not just
 * send get their in_window flag recomputed, because a slide changes it for old messages
 * that are never re-fetched.
 */
function merge(existing: MessageJson[], incoming: MessageJson[], window: WindowJson | null): MessageJson[] {
  const fresh = new Set(incoming.map((m) => m.id));
  const byId = new Map<string, MessageJson>();
  for (const m of existing) {
    byId.set(m.id, window && !fresh.has(m.id) ? { ...m, in_window: isInWindow(m.turn_seq, window) } : m);
  }
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** Text of the newest user message that a person typed (tool results are not retried). */
export function lastTypedUserText(messages: MessageJson[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "user" && !m.content.some((b) => b.type === "tool_result")) return m.text;
  }
  return null;
}

function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export const useConversationStore = create<ConversationState>()((set, get) => {
  const isOpen = (sessionId: string) => get().sessionId === sessionId;

  /** Re-reads the newest page so slid-out and pinned turns show what the server decided. */
  async function refreshTail(sessionId: string): Promise<void> {
    try {
      const page = await api.listMessages(sessionId, { limit: PAGE_SIZE });
      if (!isOpen(sessionId)) return;
      set((s) => ({ messages: merge(s.messages, page.messages, page.window), window: page.window }));
    } catch {
      // The stream already delivered the messages; only the in-window flags may be stale.
    }
  }

  function fail(a: Attempt, error: ApiErrorInfo): void {
    if (isOpen(a.sessionId)) set({ sendError: { ...error, text: a.text, saved: a.saved } });
  }

  function apply(a: Attempt, event: SendEvent): void {
    const { sessionId } = a;
    if (event.event === "user_message") a.saved = true;
    if (event.event === "done") a.finished = true;
    if (event.event === "status") {
      useStatusStore.getState().accept(event.data);
      return;
    }
    if (!isOpen(sessionId)) return;
    switch (event.event) {
      case "user_message":
        set((s) => ({ messages: merge(s.messages, [event.data], null), pendingText: null, phase: "streaming" }));
        break;
      case "notice":
        set((s) => ({ notices: [...s.notices, event.data] }));
        break;
      case "delta":
        set((s) => ({ streamingText: s.streamingText + event.data.text, phase: "streaming" }));
        break;
      case "assistant_message":
        set((s) => ({ messages: merge(s.messages, [event.data], null), streamingText: "", phase: "finishing" }));
        break;
      case "error":
        fail(a, event.data.error);
        break;
      case "done":
        break;
    }
  }

  async function run(a: Attempt, body: api.SendBody): Promise<void> {
    const { sessionId } = a;
    try {
      for await (const event of api.streamMessage(sessionId, body, { idempotencyKey: newIdempotencyKey() })) {
        apply(a, event);
      }
      if (!a.finished && !get().sendError) {
        fail(a, { code: "stream_ended", message: "The connection closed before the reply finished." });
      }
    } catch (err) {
      fail(a, api.describeError(err));
    } finally {
      if (isOpen(sessionId)) set({ phase: "idle", pendingText: null, streamingText: "" });
      await refreshTail(sessionId);
      // Without the stream's final status event the bar would show the state before this send.
      if (!a.finished) void useStatusStore.getState().load(sessionId);
      void useSessionsStore.getState().refresh(sessionId);
    }
  }

  return {
    sessionId: null,
    messages: [],
    window: null,
    hasMore: false,
    loading: false,
    loadingOlder: false,
    loadError: null,
    phase: "idle",
    pendingText: null,
    streamingText: "",
    notices: [],
    sendError: null,
    protecting: {},
    protectError: null,

    async open(sessionId) {
      if (sessionId === get().sessionId) return;
      set({
        sessionId,
        messages: [],
        window: null,
        hasMore: false,
        loading: sessionId !== null,
        loadError: null,
        phase: "idle",
        pendingText: null,
        streamingText: "",
        notices: [],
        sendError: null,
        protectError: null,
      });
      useStatusStore.getState().track(sessionId);
      if (!sessionId) return;
      void useStatusStore.getState().load(sessionId);
      try {
        const page = await api.listMessages(sessionId, { limit: PAGE_SIZE });
        if (!isOpen(sessionId)) return;
        set((s) => ({
          messages: merge(s.messages, page.messages, page.window),
          window: page.window,
          hasMore: page.has_more,
          loading: false,
        }));
      } catch (err) {
        if (isOpen(sessionId)) set({ loading: false, loadError: api.describeError(err).message });
      }
    },

    async loadOlder() {
      const { sessionId, messages, hasMore, loadingOlder } = get();
      if (!sessionId || !hasMore || loadingOlder || messages.length === 0) return;
      set({ loadingOlder: true });
      try {
        const page = await api.listMessages(sessionId, { beforeSeq: messages[0].seq, limit: PAGE_SIZE });
        if (!isOpen(sessionId)) return;
        set((s) => ({
          messages: merge(s.messages, page.messages, null),
          hasMore: page.has_more,
          loadingOlder: false,
        }));
      } catch (err) {
        if (isOpen(sessionId)) set({ loadingOlder: false, loadError: api.describeError(err).message });
      }
    },

    async send(rawText) {
      const text = rawText.trim();
      if (!text || get().phase !== "idle") return;
      set({ phase: "sending", pendingText: text, streamingText: "", notices: [], sendError: null });

      let sessionId = get().sessionId;
      if (!sessionId) {
        try {
          const session = await api.createSession();
          sessionId = session.id;
          // Claim the new session before selecting it, so open() does not reset this send.
          set({ sessionId, messages: [], window: null, hasMore: false });
          useStatusStore.getState().track(sessionId);
          useSessionsStore.getState().upsert(session);
          useSessionsStore.getState().select(sessionId);
        } catch (err) {
          set({ phase: "idle", pendingText: null, sendError: { ...api.describeError(err), text, saved: false } });
          return;
        }
      }
      await run({ sessionId, text, saved: false, finished: false }, { content: text });
    },

    async retry() {
      const { sendError, messages, sessionId, phase } = get();
      if (phase !== "idle") return;
      if (sendError && !sendError.saved) {
        await get().send(sendError.text);
        return;
      }
      const text = sendError?.text || lastTypedUserText(messages);
      if (!sessionId || !text) return;
      set({ phase: "sending", pendingText: null, streamingText: "", notices: [], sendError: null });
      await run({ sessionId, text, saved: true, finished: false }, { retry: true });
    },

    async toggleProtect(message) {
      const { sessionId } = get();
      if (!sessionId || get().protecting[message.id]) return;
      set((s) => ({ protecting: { ...s.protecting, [message.id]: true }, protectError: null }));
      try {
        const updated = await api.setProtected(message.id, !message.protected);
        if (isOpen(sessionId)) set((s) => ({ messages: merge(s.messages, [updated], null) }));
        // Protecting can pin a turn back into the window and change what the next request holds.
        await refreshTail(sessionId);
        void useStatusStore.getState().load(sessionId);
      } catch (err) {
        if (isOpen(sessionId)) set({ protectError: api.describeError(err).message });
      } finally {
        set((s) => {
          const { [message.id]: _, ...rest } = s.protecting;
          return { protecting: rest };
        });
      }
    },
  };
});
