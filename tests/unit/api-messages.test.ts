import { describe, it, expect } from "vitest";
import { INTERRUPTED_TOOL_RESULT, toApiMessages } from "@/lib/context/api-messages";
import type { ContentBlock, EngineMessage, MessageStatus, Role, TextBlock } from "@/lib/context/types";

const text = (t: string): TextBlock => ({ type: "text", text: t });
const toolUse = (id: string): ContentBlock => ({ type: "tool_use", id, name: "run", input: {} });
const toolResult = (id: string, content = "ok"): ContentBlock => ({ type: "tool_result", tool_use_id: id, content });
const synthetic = (id: string): ContentBlock => ({ type: "tool_result", tool_use_id: id, is_error: true, content: INTERRUPTED_TOOL_RESULT });

function msgs(specs: [Role, ContentBlock[], MessageStatus?][]): EngineMessage[] {
  return specs.map(([role, content, status], i) => ({
    seq: i + 1,
    turnSeq: 1,
    role,
    content,
    tokenCount: 1,
    protected: false,
    status: status ?? "complete",
  }));
}

describe("toApiMessages", () => {
  it("never sends thinking without a signature (an imported export's), keeping the reply's text", () => {
    const input = msgs([
      ["user", [text("plan it")]],
      ["assistant", [{ type: "thinking", thinking: "imported", signature: "" }, text("planned")]],
      ["user", [text("and then?")]],
    ]);
    expect(toApiMessages(input)[1]).toEqual({ role: "assistant", content: [text("planned")] });
    const signed = msgs([["user", [text("q")]], ["assistant", [{ type: "thinking", thinking: "mine", signature: "c2ln" }, text("a")]], ["user", [text("q2")]]]);
    expect(toApiMessages(signed)[1].content[0]).toMatchObject({ type: "thinking", signature: "c2ln" });
  });

  it("passes a valid tool loop through unchanged", () => {
    const input = msgs([
      ["user", [text("list files")]],
      ["assistant", [text("sure"), toolUse("t1")]],
      ["user", [toolResult("t1", "a.ts")]],
      ["assistant", [text("a.ts")]],
      ["user", [text("thanks")]],
    ]);
    expect(toApiMessages(input)).toEqual(input.map((m) => ({ role: m.role, content: m.content })));
  });

  it("drops empty and whitespace-only text blocks, and messages left empty", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("a"), text("")]],
        ["assistant", [text("  \n")]],
        ["user", [text("b")]],
      ]),
    );
    expect(out).toEqual([{ role: "user", content: [text("a"), text("b")] }]);
  });

  it("drops empty text inside tool_result content", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("go")]],
        ["assistant", [toolUse("t1")]],
        ["user", [{ type: "tool_result", tool_use_id: "t1", content: [text(""), text("done")] }]],
      ]),
    );
    expect(out[2].content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: [text("done")] }]);
  });

  it("keeps the partial text of an interrupted assistant message", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("explain")]],
        ["assistant", [text("The first reason is")], "interrupted"],
        ["user", [text("go on")]],
      ]),
    );
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(out[1].content).toEqual([text("The first reason is")]);
  });

  it("answers a tool_use that never got a result with an error result", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("run it")]],
        ["assistant", [toolUse("t1")], "interrupted"],
        ["user", [text("what happened?")]],
      ]),
    );
    expect(out[2]).toEqual({ role: "user", content: [synthetic("t1"), text("what happened?")] });
  });

  it("appends a user message of error results after a trailing tool_use", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("run it")]],
        ["assistant", [text("running"), toolUse("t1"), toolUse("t2")]],
      ]),
    );
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({ role: "user", content: [synthetic("t1"), synthetic("t2")] });
  });

  it("fills in only the missing results of a parallel tool call", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("run both")]],
        ["assistant", [toolUse("t1"), toolUse("t2")]],
        ["user", [toolResult("t1")]],
      ]),
    );
    expect(out[2].content).toEqual([toolResult("t1"), synthetic("t2")]);
  });

  it("merges consecutive messages of the same role", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("a")]],
        ["user", [text("b")]],
        ["assistant", [text("c")], "interrupted"],
        ["assistant", [text("d")]],
        ["user", [text("e")]],
      ]),
    );
    expect(out).toEqual([
      { role: "user", content: [text("a"), text("b")] },
      { role: "assistant", content: [text("c"), text("d")] },
      { role: "user", content: [text("e")] },
    ]);
  });

  it("puts tool results first when merging a user message into them", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("go")]],
        ["assistant", [toolUse("t1")]],
        ["user", [text("note")]],
        ["user", [toolResult("t1")]],
      ]),
    );
    expect(out[2].content).toEqual([toolResult("t1"), text("note")]);
  });

  it("drops leading assistant messages", () => {
    const out = toApiMessages(
      msgs([
        ["assistant", [text("hello!")]],
        ["user", [text("hi")]],
      ]),
    );
    expect(out).toEqual([{ role: "user", content: [text("hi")] }]);
  });

  it("drops tool results that answer no preceding tool_use", () => {
    const out = toApiMessages(
      msgs([
        ["user", [toolResult("gone")]],
        ["assistant", [text("orphan reply")]],
        ["user", [text("q")]],
        ["assistant", [text("a")]],
        ["user", [toolResult("t9"), text("and?")]],
      ]),
    );
    expect(out).toEqual([
      { role: "user", content: [text("q")] },
      { role: "assistant", content: [text("a")] },
      { role: "user", content: [text("and?")] },
    ]);
  });

  it("keeps only the first result for a tool_use id", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("go")]],
        ["assistant", [toolUse("t1")]],
        ["user", [toolResult("t1", "first")]],
        ["user", [toolResult("t1", "second")]],
      ]),
    );
    expect(out[2].content).toEqual([toolResult("t1", "first")]);
  });

  it("trims trailing whitespace from a final assistant message", () => {
    const out = toApiMessages(
      msgs([
        ["user", [text("q")]],
        ["assistant", [text("partial answer \n")], "interrupted"],
      ]),
    );
    expect(out[1].content).toEqual([text("partial answer")]);
  });

  it("returns an empty list when nothing valid remains", () => {
    expect(toApiMessages([])).toEqual([]);
    expect(toApiMessages(msgs([["assistant", [text("hi")]]]))).toEqual([]);
  });

  it("does not mutate its input", () => {
    const input = msgs([
      ["user", [text("a")]],
      ["user", [text("b")]],
      ["assistant", [toolUse("t1")]],
      ["user", [text("c")]],
    ]);
    const copy = structuredClone(input);
    toApiMessages(input);
    expect(input).toEqual(copy);
  });
});
