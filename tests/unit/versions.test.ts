import { describe, expect, it } from "vitest";
import type { MessageJson } from "@/lib/contract";
import { offeredVersions, versionView } from "@/lib/client/versions";
import { replacedIds } from "@/lib/client/conversation-helpers";

let seq = 0;
function msg(id: string, turn: number, role: "user" | "assistant", extra: Partial<MessageJson> = {}): MessageJson {
  seq += 1;
  return {
    id, session_id: "s", seq, turn_seq: turn, role, content: [], text: id, token_count: 1, protected: false, status: "complete",
    in_window: true, supersedes_turn: null, restarts_turn: false, created_at: "2026-11-26T00:00:00Z", ...extra,
  };
}

describe("versions", () => {
  const messages = [
    msg("q1", 1, "user"),
    msg("a1", 1, "assistant"),
    msg("a1b", 1, "assistant", { restarts_turn: true }),
    msg("q1-edit", 2, "user", { supersedes_turn: 1 }),
    msg("a2", 2, "assistant"),
    msg("q1-edit2", 3, "user", { supersedes_turn: 2 }),
    msg("a3", 3, "assistant"),
  ];

  it("shows the latest version of each, with its switcher on its first message", () => {
    const view = versionView(messages, {});
    expect([...view.hidden].sort()).toEqual(["a1", "a1b", "a2", "q1", "q1-edit"]);
    expect(view.switchers.get("q1-edit2")).toEqual({ slot: "edit:1", index: 2, count: 3 });
  });

  it("shows a picked version with its own regenerated replies; a pick lapses when a newer version arrives", () => {
    const view = versionView(messages, { "edit:1": { index: 0, count: 3 } });
    expect(view.hidden.has("q1")).toBe(false);
    expect(view.hidden.has("a1b")).toBe(false);
    expect(view.hidden.has("a1")).toBe(true);
    expect(view.switchers.get("a1b")).toEqual({ slot: "regen:1", index: 1, count: 2 });
    expect(versionView(messages, { "edit:1": { index: 0, count: 2 } }).hidden.has("q1")).toBe(true);
  });

  it("an edit that replaces several turns shows them as one earlier version", () => {
    const ranged = [msg("r1", 1, "user"), msg("r1a", 1, "assistant"), msg("r2", 2, "user"), msg("r2a", 2, "assistant"), msg("r3", 3, "user", { supersedes_turn: 1 }), msg("r3a", 3, "assistant")];
    expect([...versionView(ranged, {}).hidden].sort()).toEqual(["r1", "r1a", "r2", "r2a"]);
    const first = versionView(ranged, { "edit:1": { index: 0, count: 2 } });
    expect([...first.hidden].sort()).toEqual(["r3", "r3a"]);
    expect(first.switchers.get("r1")).toEqual({ slot: "edit:1", index: 0, count: 2 });
  });
});

describe("what offers Edit and Regenerate", () => {
  const toolResult = { type: "tool_result", tool_use_id: "t", content: "ok" } as unknown as MessageJson["content"][number];
  const messages = [
    msg("q1", 1, "user"),
    msg("a1", 1, "assistant"),
    msg("q2", 2, "user"),
    msg("a2-call", 2, "assistant"),
    msg("r2", 2, "user", { content: [toolResult] }),
    msg("a2", 2, "assistant"),
    msg("q3", 3, "user"),
    msg("a3", 3, "assistant"),
    // An edit of turn 3: turn 3 is now the earlier version.
    msg("q3-edit", 4, "user", { supersedes_turn: 3 }),
    msg("a4", 4, "assistant", { status: "streaming" }),
  ];

  it("every turn of the current version: its typed message and its last reply, not a tool result, an earlier version or a streaming reply", () => {
    const offered = offeredVersions(messages, replacedIds(messages), 0);
    expect([...offered.edit]).toEqual(["q1", "q2", "q3-edit"]);
    expect([...offered.regenerate]).toEqual(["a1", "a2"]);
  });

  it("not the turns the summary retells", () => {
    const offered = offeredVersions(messages, replacedIds(messages), 1);
    expect([...offered.edit]).toEqual(["q2", "q3-edit"]);
    expect([...offered.regenerate]).toEqual(["a2"]);
  });
});
