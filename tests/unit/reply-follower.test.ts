// A tab following a reply another tab writes (lib/client/conversation-stream.ts, reply-follower.ts):
// pages of the newest messages arrive in any order (a live event's read, the follower's own
// poll), so a page read before the reply was saved can be answered after one read since. The
// tab must never show the reply twice (saved, and again as in progress) nor as an empty reply.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStore } from "zustand/vanilla";
import type { MessageJson, WindowJson } from "@/lib/contract";
import { createReplyStream } from "@/lib/client/conversation-stream";
import { SESSION_START, type ConversationState } from "@/lib/client/conversation-state";

vi.mock("@/lib/client/api/messages", () => ({ listMessages: vi.fn(() => new Promise(() => {})), streamMessage: vi.fn() }));
vi.mock("@/lib/client/status-store", () => ({ useStatusStore: { getState: () => ({ load: vi.fn(), accept: vi.fn() }) } }));
vi.mock("@/lib/client/checkpoints-store", () => ({ useCheckpointsStore: { getState: () => ({ refresh: vi.fn() }) } }));

const SESSION = "00000000-0000-4000-8000-000000000001";
const WINDOW: WindowJson = { cutoff_turn_seq: 1, pinned_turn_seqs: [] };

function message(seq: number, role: "user" | "assistant", text: string, status: MessageJson["status"]): MessageJson {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
    session_id: SESSION,
    seq,
    turn_seq: Math.ceil(seq / 2),
    role,
    content: [{ type: "text", text }],
    text,
    token_count: 1,
    protected: false,
    status,
    in_window: true,
    supersedes_turn: null,
    restarts_turn: false,
    created_at: "2026-11-28T12:00:00.000Z",
  };
}

const page = (messages: MessageJson[]) => ({ messages, window: WINDOW });

function setup() {
  const store = createStore<ConversationState>()(() => ({ ...SESSION_START, sessionId: SESSION, loading: false, protecting: {}, thinkingTimes: {} }) as unknown as ConversationState);
  const stream = createReplyStream(store.setState, store.getState, {
    refreshTail: async () => {},
    loadHistory: async () => {},
    afterCompaction: async () => {},
  });
  /** What the list shows of the reply: saved copies, and the in-progress one. */
  const shown = (id: string) => ({
    saved: store.getState().messages.filter((m) => m.id === id).map((m) => m.text),
    inProgress: store.getState().phase === "streaming" ? store.getState().streamingText : null,
  });
  return { store, stream, shown };
}

describe("a tab following another tab's reply", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const user = message(1, "user", "Tell me a story", "complete");
  const writing = message(2, "assistant", "Once upon", "streaming");
  const saved = message(2, "assistant", "Once upon a time.", "complete");

  it("follows the reply as it is written, then shows it saved, once", () => {
    const { stream, shown } = setup();
    stream.adopt(SESSION, page([user, writing]));
    expect(shown(saved.id)).toEqual({ saved: [], inProgress: "Once upon" });
    stream.delta({ message_id: saved.id, offset: 9, text: " a time." });
    expect(shown(saved.id)).toEqual({ saved: [], inProgress: "Once upon a time." });
    stream.adopt(SESSION, page([user, saved]));
    expect(shown(saved.id)).toEqual({ saved: ["Once upon a time."], inProgress: null });
  });

  it("does not follow again a reply a later page already showed saved (a page read before it was saved, answered late)", () => {
    const { stream, shown } = setup();
    stream.adopt(SESSION, page([user, writing]));
    stream.adopt(SESSION, page([user, saved]));
    // The stale page: the reply still being written when it was read.
    stream.adopt(SESSION, page([user, writing]));
    expect(shown(saved.id)).toEqual({ saved: ["Once upon a time."], inProgress: null });
    // A late delta of it changes nothing either.
    stream.delta({ message_id: saved.id, offset: 0, text: "Once upon a time." });
    expect(shown(saved.id)).toEqual({ saved: ["Once upon a time."], inProgress: null });
  });

  it("a stale page read before the reply existed does not remove or duplicate it", () => {
    const { stream, shown } = setup();
    stream.adopt(SESSION, page([user, saved]));
    stream.adopt(SESSION, page([user]));
    expect(shown(saved.id)).toEqual({ saved: ["Once upon a time."], inProgress: null });
  });
});
