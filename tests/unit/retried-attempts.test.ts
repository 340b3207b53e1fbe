import { describe, expect, it } from "vitest";
import type { MessageJson } from "@/lib/contract";
import { merge, withoutRetriedAttempts } from "@/lib/client/conversation-helpers";

let seq = 0;
function msg(id: string, turn: number, role: "user" | "assistant", extra: Partial<MessageJson> = {}): MessageJson {
  seq += 1;
  return {
    id, session_id: "s", seq, turn_seq: turn, role, content: [], text: id, token_count: 1, protected: false, status: "complete",
    in_window: true, supersedes_turn: null, restarts_turn: false, created_at: "2026-11-28T00:00:00Z", ...extra,
  };
}

describe("a retried reply replaces its failed attempt", () => {
  it("hides an interrupted reply once a later reply of its turn exists, whichever page brought them", () => {
    const q = msg("q", 1, "user");
    const failed = msg("failed", 1, "assistant", { status: "interrupted", text: "" });
    expect(merge([], [q, failed], null).map((m) => m.id)).toEqual(["q", "failed"]);
    const answer = msg("answer", 1, "assistant");
    expect(merge([q, failed], [answer], null).map((m) => m.id)).toEqual(["q", "answer"]);
    // Reloaded: the history holds all three, the list shows two.
    expect(merge([], [q, failed, answer], null).map((m) => m.id)).toEqual(["q", "answer"]);
  });

  it("keeps the latest failure when the retry failed too, and other turns' replies", () => {
    const list = [msg("q1", 1, "user"), msg("a1", 1, "assistant", { status: "interrupted" }), msg("q2", 2, "user"), msg("x", 2, "assistant", { status: "interrupted" }), msg("y", 2, "assistant", { status: "interrupted" })];
    expect(withoutRetriedAttempts(list).map((m) => m.id)).toEqual(["q1", "a1", "q2", "y"]);
  });

  it("keeps a stopped reply that was regenerated: it is the earlier version behind the switcher", () => {
    const list = [msg("q", 1, "user"), msg("stopped", 1, "assistant", { status: "interrupted" }), msg("again", 1, "assistant", { restarts_turn: true })];
    expect(withoutRetriedAttempts(list)).toBe(list);
  });
});
