// Which of Threadkeeper's own tools an API request chose (lib/turn/api-session.ts), and which
// tool calls its last message answers.
import { describe, expect, it } from "vitest";
import { answeredCalls, chosenTools } from "@/lib/turn/api-session";
import { canonicalKey } from "@/lib/context/client-history";

describe("chosenTools", () => {
  it("reads the header: a list, none, whitespace and case forgiven", () => {
    expect(chosenTools("recall", null)).toEqual({ recall_tool: true, canvas_tools: false });
    expect(chosenTools(" Canvas , recall ", null)).toEqual({ recall_tool: true, canvas_tools: true });
    expect(chosenTools("none", null)).toEqual({ recall_tool: false, canvas_tools: false });
  });

  it("refuses what it does not know, naming it", () => {
    expect(() => chosenTools("recall,teleport", null)).toThrow(/unknown tool 'teleport'/);
    expect(() => chosenTools("", null)).toThrow(/empty/);
    expect(() => chosenTools("none,recall", null)).toThrow(/unknown tool 'none'/);
  });

  it("the header wins over the key; neither leaves it to the session", () => {
    expect(chosenTools("none", ["recall", "canvas"])).toEqual({ recall_tool: false, canvas_tools: false });
    expect(chosenTools(null, ["canvas"])).toEqual({ recall_tool: false, canvas_tools: true });
    expect(chosenTools(null, [])).toEqual({ recall_tool: false, canvas_tools: false });
    expect(chosenTools(null, null)).toBeNull();
  });
});

describe("answeredCalls", () => {
  it("lists the ids of the tool results, nothing else", () => {
    expect(
      answeredCalls([
        { type: "tool_result", tool_use_id: "toolu_1", content: "a" },
        { type: "text", text: "and" },
        { type: "tool_result", tool_use_id: "toolu_2", content: "b" },
      ]),
    ).toEqual(["toolu_1", "toolu_2"]);
  });
});

describe("canonicalKey of media", () => {
  it("an image as sent and as stored are one key: the digest of its bytes", () => {
    const sent = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR..." }, threadkeeper: { sha256: "ab12" } };
    const stored = { type: "image", source: { type: "threadkeeper_file", file_id: "f-1", media_type: "image/png" }, threadkeeper: { sha256: "ab12", file_id: "f-1" } };
    expect(canonicalKey("user", [sent])).toBe(canonicalKey("user", [stored]));
    expect(canonicalKey("user", [{ ...sent, threadkeeper: { sha256: "cd34" } }])).not.toBe(canonicalKey("user", [stored]));
  });
});
