// Every block renderer draws from loosely typed content: fields missing, of the wrong type,
// or extra. None may throw, and links must stay safe.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { groupBlocks } from "@/lib/client/content-blocks";
import { BlockItems } from "@/components/chat/blocks/BlockItems";

// Every row drawn open, so what its panel shows is drawn too.
vi.mock("@/components/chat/blocks/Disclosure", async (importActual) => {
  const actual = await importActual<typeof import("@/components/chat/blocks/Disclosure")>();
  return { ...actual, Disclosure: (props: Parameters<typeof actual.Disclosure>[0]) => actual.Disclosure({ ...props, defaultOpen: true }) };
});

function html(content: unknown[], streaming = false): string {
  return renderToStaticMarkup(createElement(BlockItems, { items: groupBlocks(content), anchor: "m1", streaming }));
}

const KINDS = [
  "text", "image", "document", "search_result", "thinking", "redacted_thinking", "tool_use", "tool_result", "server_tool_use",
  "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result", "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result", "tool_search_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload",
  "system_message", "opaque",
];
const ODD_VALUES: unknown[] = [null, 5, "x", [], {}, [null, 3, { type: 7 }], { type: "web_search_tool_result_error" }];

describe("block renderers", () => {
  it("draw every kind with missing or odd fields without throwing", () => {
    for (const type of KINDS) {
      expect(() => html([{ type }]), type).not.toThrow();
      for (const odd of ODD_VALUES) {
        const block = { type, id: "x", tool_use_id: "x", name: odd, input: odd, content: odd, source: odd, citations: odd, text: odd, thinking: odd, block: odd, threadkeeper: odd, title: odd };
        expect(() => html([block]), `${type} ${JSON.stringify(odd)}`).not.toThrow();
        expect(() => html([{ type: "server_tool_use", id: "x", name: "web_search", input: odd }, block], true)).not.toThrow();
      }
    }
  });

  it("draws thinking quietly, web search results as safe links, and citation markers", () => {
    const out = html([
      { type: "thinking", thinking: "", signature: "s" },
      { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "tide tables" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "s1",
        content: [
          { type: "web_search_result", url: "https://tides.example/today", title: "Tides", page_age: "2 days" },
          { type: "web_search_result", url: "javascript:alert(1)", title: "Evil" },
        ],
      },
      { type: "text", text: "High tide is at noon.", citations: [{ type: "web_search_result_location", url: "https://tides.example/today", title: "Tides", cited_text: "noon" }] },
    ]);
    expect(out).toContain("Thought (hidden)");
    expect(out).toContain("Searched the web: tide tables");
    expect(out).toContain("2 results");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('data-testid="citation-marker"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).toContain('href="https://tides.example/today"');
    expect(out).toContain("tides.example · 2 days");
  });

  it("names unknown blocks and readable errors", () => {
    const out = html([
      { type: "opaque", block: { type: "future_thing", a: 1 } },
      { type: "server_tool_use", id: "c", name: "web_fetch", input: { url: "https://x.example/a" } },
      { type: "web_fetch_tool_result", tool_use_id: "c", content: { type: "web_fetch_tool_result_error", error_code: "url_not_accessible" } },
    ]);
    expect(out).toContain("Unsupported block: future_thing");
    expect(out).toContain("Fetched x.example");
    expect(out).toContain("failed");
    expect(out).toContain("the page could not be reached");
  });
});
