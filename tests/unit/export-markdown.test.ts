import { describe, expect, it } from "vitest";
import type { MessageJson, SessionJson } from "@/lib/contract";
import { sessionMarkdown } from "@/lib/export/markdown";

const session = { id: "s", title: "Parser fix", model: "claude-sonnet-4-5", created_at: "2026-11-01T10:00:00.000Z", message_count: 3 } as SessionJson;
let seq = 0;
const msg = (role: "user" | "assistant", turn: number, content: MessageJson["content"], extra: Partial<MessageJson> = {}): MessageJson =>
  ({ id: `m${++seq}`, session_id: "s", seq, turn_seq: turn, role, content, text: "", token_count: 1, protected: false, status: "complete", in_window: true, supersedes_turn: null, restarts_turn: false, created_at: "2026-11-01T10:00:00.000Z", ...extra }) as MessageJson;

describe("session Markdown", () => {
  it("folds thinking and tool calls, fences what holds backticks so it cannot break out, marks an interrupted reply", () => {
    const md = sessionMarkdown({
      session,
      compactions: [],
      messages: [
        msg("user", 1, [{ type: "text", text: "Fix it." }]),
        msg("assistant", 1, [
          { type: "thinking", thinking: "Read first.", signature: "x" },
          { type: "tool_use", id: "t1", name: "Read", input: { path: "a.ts" } },
        ]),
        msg("user", 1, [{ type: "tool_result", tool_use_id: "t1", content: "const s = ```;" }]),
        msg("assistant", 1, [{ type: "text", text: "Done." }], { status: "interrupted" }),
      ],
    });
    expect(md).toContain("# Parser fix\n\n_claude-sonnet-4-5 · started 2026-11-01 10:00 UTC · 3 messages_");
    expect(md).toContain("<details>\n<summary>Thinking</summary>\n\nRead first.\n\n</details>");
    expect(md).toContain('<summary>Tool call: Read</summary>\n\n```json\n{\n  "path": "a.ts"\n}\n```');
    expect(md).toContain("### Tool results");
    expect(md).toContain("````\nconst s = ```;\n````");
    expect(md).toContain("### Claude · 2026-11-01 10:00 UTC · interrupted\n\nDone.");
  });

  it("names the session's project beside its model", () => {
    const md = sessionMarkdown({ session, compactions: [], messages: [msg("user", 1, [{ type: "text", text: "Hi." }])], project: { name: "Parser" } });
    expect(md).toContain("_project Parser · claude-sonnet-4-5 · started");
  });
});
