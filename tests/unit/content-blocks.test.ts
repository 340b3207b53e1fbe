import { describe, expect, it } from "vitest";
import {
  domainOf,
  firstLines,
  formatDuration,
  groupBlocks,
  needsBlockView,
  prettyJson,
  safeHref,
  splitUserItems,
  thinkingLabel,
} from "@/lib/client/content-blocks";
import { citeNumber, numberCitations, numberRuns, textWithMarkers } from "@/lib/client/citations";
import { applyBlockEvent, streamedText, thinkingDurations, thinkingTimings, type StreamBlock } from "@/lib/client/stream-blocks";

describe("groupBlocks", () => {
  it("joins consecutive text blocks into one run and pairs server tools with their results", () => {
    const items = groupBlocks([
      { type: "thinking", thinking: "hmm", signature: "s" },
      { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "q" } },
      { type: "web_search_tool_result", tool_use_id: "srv_1", content: [] },
      { type: "text", text: "A " },
      { type: "text", text: "cited", citations: [{ type: "web_search_result_location", url: "https://a.example" }] },
      { type: "redacted_thinking", data: "x" },
      { type: "text", text: "after" },
    ]);
    expect(items.map((i) => i.kind)).toEqual(["thinking", "server_tool", "text", "thinking", "text"]);
    expect(items[1]).toMatchObject({ use: { id: "srv_1" }, result: { tool_use_id: "srv_1" } });
    expect(items[2].kind === "text" && items[2].blocks).toHaveLength(2);
    expect(items[3]).toMatchObject({ ordinal: 1 });
  });

  it("keeps a result whose call is missing, and a call whose result has not come", () => {
    const items = groupBlocks([
      { type: "code_execution_tool_result", tool_use_id: "gone", content: { stdout: "1" } },
      { type: "mcp_tool_use", id: "m1", name: "lookup", server_name: "crm", input: {} },
      { type: "mcp_tool_result", tool_use_id: "m1", content: "ok" },
      { type: "server_tool_use", id: "s9", name: "web_fetch", input: { url: "https://x.example" } },
    ]);
    expect(items).toMatchObject([
      { kind: "server_tool", use: null, result: { tool_use_id: "gone" } },
      { kind: "mcp_tool", use: { id: "m1" }, result: { content: "ok" } },
      { kind: "server_tool", use: { id: "s9" }, result: null },
    ]);
  });

  it("never throws on shapes it does not know", () => {
    expect(groupBlocks(null)).toEqual([]);
    expect(groupBlocks("text")).toEqual([]);
    const items = groupBlocks([null, 7, { no: "type" }, { type: "opaque", block: { type: "future_block", x: 1 } }, { type: "brand_new" }, { type: "opaque" }]);
    expect(items.map((i) => (i.kind === "opaque" ? i.type : i.kind))).toEqual(["unknown", "unknown", "unknown", "future_block", "brand_new", "unknown"]);
  });

  it("says which messages need the block view and lays out a user's attachments", () => {
    expect(needsBlockView(groupBlocks([{ type: "text", text: "hi" }, { type: "tool_use", id: "t", name: "x", input: {} }]))).toBe(false);
    expect(needsBlockView(groupBlocks([{ type: "text", text: "hi", citations: [{ type: "page_location" }] }]))).toBe(true);
    expect(needsBlockView(groupBlocks([{ type: "thinking", thinking: "", signature: "" }]))).toBe(true);
    const split = splitUserItems(
      groupBlocks([
        { type: "system_message", content: "before" },
        { type: "text", text: "Read this" },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "x" } },
        { type: "system_message", content: "after" },
      ]),
    );
    expect([split.before, split.attachments, split.text, split.after].map((g) => g.map((i) => i.key))).toEqual([["b0"], ["b2"], ["b1"], ["b3"]]);
    expect(splitUserItems(groupBlocks([{ type: "system_message", content: "only" }])).after).toHaveLength(1);
  });
});

describe("formatting", () => {
  it("formats durations in whole seconds, at least one", () => {
    expect(formatDuration(200)).toBe("1 s");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(formatDuration(65_000)).toBe("1 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
  });

  it("labels thinking by what is known of it", () => {
    expect(thinkingLabel({ type: "thinking", thinking: "x" }, 12_000)).toBe("Thought for 12 s");
    expect(thinkingLabel({ type: "thinking", thinking: "x" }, null)).toBe("Thought");
    expect(thinkingLabel({ type: "thinking", thinking: "x", threadkeeper: { ms: 4_200 } }, null)).toBe("Thought for 4 s");
    expect(thinkingLabel({ type: "thinking", thinking: "" }, null)).toBe("Thought (hidden)");
    expect(thinkingLabel({ type: "thinking", thinking: " " }, 3_000)).toBe("Thought for 3 s (hidden)");
    expect(thinkingLabel({ type: "redacted_thinking", data: "x" }, 5_000)).toBe("Reasoning redacted");
    expect(thinkingLabel({ type: "thinking", thinking: "" }, 4_900, true)).toBe("Thinking… 4 s");
    expect(thinkingLabel({ type: "thinking" }, null, true)).toBe("Thinking…");
  });

  it("links only web addresses and names their site", () => {
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("not a url")).toBeNull();
    expect(safeHref(42)).toBeNull();
    expect(safeHref("https://www.example.com/a")).toBe("https://www.example.com/a");
    expect(domainOf("https://www.example.com/a")).toBe("example.com");
  });

  it("previews the first lines and prints any value", () => {
    expect(firstLines("\na\nb\nc", 2)).toEqual({ head: "a\nb", more: true });
    expect(firstLines("a", 2)).toEqual({ head: "a", more: false });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(prettyJson(cyclic)).toBe("[object]");
    expect(prettyJson(undefined)).toBe("undefined");
  });
});

describe("citations", () => {
  const web = (url: string, title = "T") => ({ type: "web_search_result_location", url, title, cited_text: "c" });
  it("numbers each source once, first cited first", () => {
    const blocks = [
      { type: "text", text: "One.", citations: [web("https://a.example/x"), web("https://b.example")] },
      { type: "text", text: " Plain." },
      { type: "text", text: " Two.\n\n", citations: [web("https://b.example"), { type: "page_location", document_index: 0, document_title: "Report", start_page_number: 3, end_page_number: 4 }] },
      { type: "text", text: "Range.", citations: [{ type: "page_location", document_index: 0, start_page_number: 3, end_page_number: 6 }, null, "junk"] },
    ];
    const { sources, marks } = numberCitations(blocks);
    expect(marks).toEqual([[1, 2], [], [2, 3], [4]]);
    expect(sources.map((s) => [s.n, s.label, s.href])).toEqual([
      [1, "a.example", "https://a.example/x"],
      [2, "b.example", "https://b.example/"],
      [3, "p. 3", null],
      [4, "pp. 3–5", null],
    ]);
    expect(sources[2].title).toBe("Report");
    expect(sources[3].title).toBe("Document");
    expect(textWithMarkers(blocks, marks)).toBe("One. [1](#tk-cite-1) [2](#tk-cite-2) Plain. Two. [2](#tk-cite-2) [3](#tk-cite-3)\n\nRange. [4](#tk-cite-4)");
  });

  it("numbers across a message's runs of text, a source keeping its number", () => {
    const { sources, marks } = numberRuns([
      [{ type: "text", text: "a", citations: [web("https://a.example")] }, { type: "text", text: "b" }],
      [{ type: "text", text: "c", citations: [web("https://b.example"), web("https://a.example")] }],
    ]);
    expect(sources.map((s) => s.n)).toEqual([1, 2]);
    expect(marks).toEqual([[[1], []], [[2, 1]]]);
  });

  it("never links an unsafe address and reads marker links back", () => {
    const { sources } = numberCitations([{ type: "text", text: "x", citations: [web("javascript:alert(1)")] }]);
    expect(sources[0].href).toBeNull();
    expect(citeNumber("#tk-cite-3")).toBe(3);
    expect(citeNumber("#tk-cite-x")).toBeNull();
    expect(citeNumber("https://a.example")).toBeNull();
    expect(citeNumber(undefined)).toBeNull();
  });
});

describe("stream blocks", () => {
  function run(events: [Record<string, unknown>, number][]): readonly StreamBlock[] {
    return events.reduce<readonly StreamBlock[]>((blocks, [e, at]) => applyBlockEvent(blocks, e, at), []);
  }

  it("grows thinking and text, times thinking from its start to its stop", () => {
    const blocks = run([
      [{ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }, 1_000],
      [{ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me " } }, 1_500],
      [{ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "see." } }, 2_000],
      [{ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } }, 13_000],
      [{ type: "content_block_stop", index: 0 }, 13_400],
      [{ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }, 13_500],
      [{ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } }, 13_600],
      [{ type: "content_block_delta", index: 1, delta: { type: "citations_delta", citation: { type: "page_location", start_page_number: 1 } } }, 13_700],
    ]);
    expect(blocks[0].block).toMatchObject({ type: "thinking", thinking: "Let me see.", signature: "sig" });
    expect(thinkingDurations(blocks)).toEqual([12_400]);
    expect(blocks[1].block).toMatchObject({ text: "Hi", citations: [{ type: "page_location" }] });
    expect(streamedText(blocks)).toBe("Hi");
  });

  it("parses tool input as it arrives and keeps an unfinished thinking open", () => {
    const blocks = run([
      [{ type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "x" } }, 0],
      [{ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "s", name: "web_search", input: {} } }, 10],
      [{ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query": "tide ta' } }, 20],
    ]);
    expect(blocks[1].block.input).toEqual({ query: "tide ta" });
    const done = applyBlockEvent(blocks, { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: 'bles"}' } }, 30);
    expect(done[1].block.input).toEqual({ query: "tide tables" });
    expect(thinkingTimings(done)).toEqual([{ startedAt: 0, stoppedAt: null }]);
    expect(thinkingDurations(done)).toEqual([null]);
  });

  it("ignores events that make no sense", () => {
    const start = run([[{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, 0]]);
    expect(applyBlockEvent(start, { type: "content_block_delta", index: 5, delta: { type: "text_delta", text: "x" } }, 1)).toBe(start);
    expect(applyBlockEvent(start, { type: "content_block_delta", delta: { type: "text_delta", text: "x" } }, 1)).toBe(start);
    expect(applyBlockEvent(start, { type: "content_block_delta", index: 0, delta: "nope" }, 1)).toBe(start);
    expect(applyBlockEvent(start, { type: "message_stop", index: 0 }, 1)).toBe(start);
    const stopped = applyBlockEvent(start, { type: "content_block_stop", index: 0 }, 5);
    expect(applyBlockEvent(stopped, { type: "content_block_stop", index: 0 }, 9)[0].stoppedAt).toBe(5);
    expect(run([[{ type: "content_block_start", index: 0 }, 0]])[0].block.type).toBe("unknown");
  });
});
