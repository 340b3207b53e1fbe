import { describe, expect, it } from "vitest";
import { canonicalKey, clientView, reconcile } from "@/lib/context/client-history";
import type { ContentBlock, EngineMessage } from "@/lib/context/types";

let seq = 0;
function msg(turnSeq: number, role: "user" | "assistant", content: ContentBlock[], extra: Partial<EngineMessage> = {}): EngineMessage {
  return { seq: ++seq, turnSeq, role, content, tokenCount: 1, protected: false, status: "complete", ...extra };
}
const t = (text: string): ContentBlock[] => [{ type: "text", text }];
const key = (role: "user" | "assistant", text: string) => ({ key: canonicalKey(role, t(text)) });
const NONE = new Set<string>();

const SESSION = [msg(1, "user", t("Plan the trip.")), msg(1, "assistant", t("Sure: Rome.")), msg(2, "user", t("Three days.")), msg(2, "assistant", t("Day one…"))];

describe("the canonical form", () => {
  it("ignores whitespace, block boundaries, cache_control and thinking", () => {
    const a = canonicalKey("assistant", [{ type: "text", text: "Let me look.\n" }, { type: "text", text: "Found it." }]);
    const b = canonicalKey("assistant", [{ type: "thinking", text: "hmm" }, { type: "text", text: "Let me look. Found it." }]);
    expect(a).toBe(b);
    expect(canonicalKey("user", t("a b"))).not.toBe(canonicalKey("assistant", t("a b")));
    expect(canonicalKey("user", t("cat"))).not.toBe(canonicalKey("user", t("car")));
  });
});

describe("the client's view of a session", () => {
  it("hides Threadkeeper's own tool rounds and merges the reply around them", () => {
    const stored = [
      msg(1, "user", t("Where was the launch?")),
      msg(1, "assistant", [{ type: "text", text: "Let me look." }, { type: "tool_use", id: "r1", name: "recall", input: {} }]),
      msg(1, "user", [{ type: "tool_result", tool_use_id: "r1", content: "Lisbon" }]),
      msg(1, "assistant", t("Lisbon.")),
    ];
    const view = clientView(stored, new Set(["recall"]));
    expect(view.map((v) => v.role)).toEqual(["user", "assistant"]);
    expect(view[1].key).toBe(canonicalKey("assistant", t("Let me look. Lisbon.")));
  });

  it("leaves out unfinished replies and edited turns", () => {
    const stored = [...SESSION, msg(3, "user", t("Paris instead."), { supersedesTurn: 2 }), msg(3, "assistant", t(""), { status: "interrupted" })];
    expect(clientView(stored, NONE).map((v) => v.key)).toEqual([key("user", "Plan the trip.").key, key("assistant", "Sure: Rome.").key, key("user", "Paris instead.").key]);
  });
});

describe("lining a request up with the session", () => {
  const view = clientView(SESSION, NONE);
  const history = [key("user", "Plan the trip."), key("assistant", "Sure: Rome."), key("user", "Three days."), key("assistant", "Day one…")];

  it("a lone message is appended; the whole history resent, or its recent part, is matched", () => {
    expect(reconcile(view, [key("user", "Go on.")])).toEqual({ how: "appended" });
    expect(reconcile(view, [...history, key("user", "Go on.")])).toEqual({ how: "matched" });
    expect(reconcile(view, [...history.slice(2), key("user", "Go on.")])).toEqual({ how: "matched" });
  });

  it("the last message sent again is a retry without a reply, a regeneration with one", () => {
    const unanswered = clientView([...SESSION, msg(3, "user", t("Go on."))], NONE);
    expect(reconcile(unanswered, [...history, key("user", "Go on.")])).toEqual({ how: "retried" });
    expect(reconcile(unanswered, [key("user", "Go on.")])).toEqual({ how: "retried" });
    expect(reconcile(view, [...history.slice(0, 2), key("user", "Three days.")])).toEqual({ how: "regenerated" });
  });

  it("a history longer than the session's is imported; a different one is an edit from the turn it differs in", () => {
    expect(reconcile([], [key("user", "Hi."), key("assistant", "Hello."), key("user", "Go on.")])).toEqual({ how: "imported", importFrom: 0 });
    expect(reconcile(view, [...history, key("user", "More."), key("assistant", "Sure."), key("user", "Go on.")])).toEqual({ how: "imported", importFrom: 4 });
    // The reply of turn 2 differs: turn 2 is replaced from its user message on.
    expect(reconcile(view, [...history.slice(0, 3), key("assistant", "Day one, changed"), key("user", "Go on.")])).toEqual({
      how: "edited",
      importFrom: 2,
      replacesTurn: 2,
    });
    // A client that has not seen the last turn sends a different message: that turn is replaced.
    expect(reconcile(view, [...history.slice(0, 2), key("user", "Two days.")])).toEqual({ how: "edited", importFrom: 2, replacesTurn: 2 });
    expect(reconcile(view, [key("user", "Another trip."), key("assistant", "OK."), key("user", "Go on.")])).toEqual({ how: "edited", importFrom: 0, replacesTurn: 1 });
  });
});
