// The three outside formats, read from real-shaped files written from their public
// descriptions (../shared/reference/outside-formats.md): what each conversation becomes.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeConversation, isClaudeConversation } from "@/lib/import/claude";
import { claudeCodeSession, isClaudeCodeLine } from "@/lib/import/claude-code";
import { chatGptConversation, isChatGptConversation } from "@/lib/import/chatgpt";
import { ConversationError, isoTime, type ImportedMessage } from "@/lib/import/types";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../../fixtures/import", name), "utf8");
const text = (m: ImportedMessage) => m.content.map((b) => (b.type === "text" ? b.text : `<${b.type}>`)).join(" | ");

describe("ChatGPT", () => {
  const [sourdough, broken] = JSON.parse(fixture("chatgpt-conversations.json")) as unknown[];

  it("walks the tree from current_node: hidden nodes skipped, the other branch an earlier version, tools readable, times and models kept", () => {
    expect(isChatGptConversation(sourdough)).toBe(true);
    const c = chatGptConversation(sourdough as never);
    expect(c).toMatchObject({ format: "chatgpt", sourceId: "6790c0de-0000-4000-8000-00000000c0a1", title: "Sourdough starter", model: "gpt-5", createdAt: "2026-01-01T00:00:00.123Z" });
    expect(c.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    // Custom instructions (user_editable_context) never become a turn.
    expect(c.messages.some((m) => text(m).includes("I bake on weekends"))).toBe(false);
    expect(text(c.messages[0])).toBe("[An image (1024×768) was attached; the export keeps its file apart: sediment://file_0001]\n\nHow often should I feed this starter?");
    // The ratio question is the earlier branch; the hydration one, current, replaces it.
    expect(text(c.messages[2])).toBe("What ratio of flour to water?");
    expect(text(c.messages[4])).toBe("Compute the hydration of 500 g flour and 375 g water.");
    expect(c.messages[4].supersedesTurn).toBe(2);
    // The code call, its output and the answer: one readable reply.
    const reply = text(c.messages[5]);
    expect(reply).toContain("```python\nprint(375 / 500 * 100)\n```");
    expect(reply).toContain("Output:\n```\n75.0\n```");
    expect(reply).toContain("75 % hydration.");
    // A reply joined from several nodes keeps when it began and its first model.
    expect(c.messages[5]).toMatchObject({ model: "gpt-5-thinking", saidAt: "2026-01-01T00:06:50.000Z" });
  });

  it("a conversation without a tree is reported, not fatal", () => {
    expect(() => chatGptConversation(broken as never)).toThrow(ConversationError);
  });
});

describe("Claude.ai", () => {
  const [porto, empty] = JSON.parse(fixture("claude-conversations.json")) as unknown[];

  it("content[] over text, thinking as thinking, tools readable, attachments' text kept, files named, unknown blocks skipped", () => {
    expect(isClaudeConversation(porto)).toBe(true);
    const c = claudeConversation(porto as never);
    expect(c).toMatchObject({ format: "claude", sourceId: "a1b2c3d4-0000-4000-8000-00000000cla1", title: "Trip to Porto", createdAt: "2026-05-01T10:00:00.000Z" });
    expect(c.messages).toHaveLength(4);
    expect(text(c.messages[0])).toBe("Plan two days in Porto using my notes. | Attached notes.txt:\n\nMust see: Livraria Lello, Ribeira. | [Files attached in Claude.ai, not included in its export: map.png]");
    expect(c.messages[1].content[0]).toEqual({ type: "thinking", thinking: "Two days; the notes name Lello and Ribeira.", signature: "" });
    expect(text(c.messages[1])).toContain('Used web_search: {"query":"Livraria Lello tickets"}');
    expect(text(c.messages[1])).toContain("web_search result:\nTickets online, 10 EUR.");
    expect(text(c.messages[1])).not.toContain("injected");
    // An empty content[] falls back to text.
    expect(text(c.messages[2])).toBe("Make day two rainy-day proof.");
    expect(c.messages[3].saidAt).toBe("2026-05-01T10:10:10.000Z");
  });

  it("a conversation with no message is reported", () => {
    expect(() => claudeConversation(empty as never)).toThrow(/no message of yours/);
  });
});

describe("Claude Code", () => {
  const lines = fixture("claude-code-session.jsonl").trim().split("\n").map((l) => JSON.parse(l) as unknown);

  it("one session: split lines joined by message id, sidechains and meta lines left out, the compaction kept as a marker, the custom title", () => {
    expect(lines.some(isClaudeCodeLine)).toBe(true);
    const c = claudeCodeSession(lines, "5e55c0de-0000-4000-8000-0000000000cc.jsonl");
    expect(c).toMatchObject({ format: "claude-code", sourceId: "5e55c0de-0000-4000-8000-0000000000cc", title: "Parser numbers", model: "claude-opus-4-6" });
    expect(c.messages.map((m) => [m.role, text(m)])).toEqual([
      ["user", "fix the failing test in parser.test.ts"],
      ["assistant", "<thinking> | <tool_use>"],
      ["user", "<tool_result>"],
      ["assistant", "The parser returns a string; I changed it to return a number and the test passes."],
      ["user", "now add a test for negative numbers"],
      ["assistant", "Added parse('-1') === -1."],
    ]);
    expect(c.messages[1].content[0]).toEqual({ type: "thinking", thinking: "Read the test first.", signature: "c2lnbmF0dXJl" });
    expect(c.messages[1].content[1]).toMatchObject({ type: "tool_use", id: "toolu_01", name: "Read" });
    expect(c.compactions).toEqual([{ throughTurn: 1, summary: "This session is being continued from a previous conversation. Summary: the parser now returns numbers.", saidAt: "2026-11-01T11:00:01.000Z", trigger: "manual", preTokens: 167393 }]);
    expect(c.createdAt).toBe("2026-11-01T10:00:00.000Z");
    expect(c.project).toEqual({ name: "app", createdAt: "2026-11-01T10:00:00.000Z" });
  });

  it("the project is the working folder's name, from a Windows path too; none without one", () => {
    const at = (cwd: unknown) => claudeCodeSession(lines.map((l) => ({ ...(l as object), cwd })), "s.jsonl").project?.name;
    expect(at("C:\\Users\\me\\Payments API\\")).toBe("Payments API");
    expect(at(undefined)).toBeUndefined();
    expect(at("/")).toBeUndefined();
  });
});

describe("times", () => {
  it("takes epoch seconds and ISO strings; a time before 1970, past 9999 or beyond what a date holds is unknown, never an error", () => {
    expect(isoTime(1_700_000_000.5)).toBe("2023-11-14T22:13:20.500Z");
    expect(isoTime("2026-11-01T10:00:00Z")).toBe("2026-11-01T10:00:00.000Z");
    for (const bad of [1e15, 9e15, -1, 0, Number.NaN, Number.POSITIVE_INFINITY, "+275760-09-13T00:00:00Z", "-000001-01-01T00:00:00Z", "soon", "", null]) {
      expect(isoTime(bad)).toBeNull();
    }
  });
});
