import { describe, expect, it } from "vitest";
import type { MessageJson } from "@/lib/contract";
import { newSince } from "@/components/chat/list-layout";

function msg(seq: number, role: "user" | "assistant", content: MessageJson["content"] = [{ type: "text", text: `m${seq}` }]): MessageJson {
  return {
    id: `m${seq}`, session_id: "s", seq, turn_seq: Math.ceil(seq / 2), role, content, text: `m${seq}`, token_count: 1, protected: false,
    status: "complete", in_window: true, supersedes_turn: null, restarts_turn: false, created_at: "2026-11-28T00:00:00Z",
  };
}

describe("newSince (the count on Jump to latest)", () => {
  const toolResult = msg(5, "user", [{ type: "tool_result", tool_use_id: "t", content: "ok" }]);
  const messages = [msg(1, "user"), msg(2, "assistant"), msg(3, "user"), msg(4, "assistant"), toolResult, msg(6, "assistant")];

  it("counts the messages after the last one seen", () => {
    expect(newSince(messages, 6, new Set())).toBe(0);
    expect(newSince(messages, 2, new Set())).toBe(3);
  });

  it("leaves out tool results and versions not shown", () => {
    expect(newSince(messages, 4, new Set())).toBe(1);
    expect(newSince(messages, 2, new Set(["m3"]))).toBe(2);
  });
});
