/**
 * Server tools (web search, web fetch, code execution): which tool types the fake accepts, and
 * the blocks of a scripted web search. `encrypted_content` / `encrypted_index` are opaque to
 * clients, as in the API, but the fake can read its own back (to count a result when it returns).
 */
import { randomBytes } from "node:crypto";
import type { Citation, OutputBlock, WebSearchResultBlock, WebSearchResultSpec } from "./types";

/** Server tool type prefixes, from the SDK's ToolUnion (messages.d.ts). */
const SERVER_TOOL_PREFIXES = ["web_search_", "web_fetch_", "code_execution_", "tool_search_tool_regex_", "tool_search_tool_bm25_"];
const ENCRYPTED_PREFIX = "EqFake";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isServerTool(tool: unknown): boolean {
  return isRecord(tool) && typeof tool.type === "string" && SERVER_TOOL_PREFIXES.some((p) => (tool.type as string).startsWith(p));
}

export function hasWebSearchTool(tools: readonly unknown[]): boolean {
  return tools.some((t) => isRecord(t) && typeof t.type === "string" && t.type.startsWith("web_search_"));
}

export function encryptContent(text: string): string {
  return ENCRYPTED_PREFIX + Buffer.from(JSON.stringify({ text }), "utf8").toString("base64");
}

/** The page text inside one of the fake's `encrypted_content` strings ("" for anything else). */
export function decryptContent(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith(ENCRYPTED_PREFIX)) return "";
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.slice(ENCRYPTED_PREFIX.length), "base64").toString("utf8"));
    return isRecord(parsed) && typeof parsed.text === "string" ? parsed.text : "";
  } catch {
    return "";
  }
}

export function webSearchBlocks(query: string, results: readonly WebSearchResultSpec[], text: string | undefined): OutputBlock[] {
  const id = `srvtoolu_fake${randomBytes(10).toString("hex")}`;
  const content: WebSearchResultBlock[] = results.map((r) => ({
    type: "web_search_result",
    url: r.url,
    title: r.title,
    encrypted_content: encryptContent(r.snippet ?? r.title),
    page_age: r.pageAge === undefined ? "2 days ago" : r.pageAge,
  }));
  const blocks: OutputBlock[] = [
    { type: "server_tool_use", id, name: "web_search", input: { query }, caller: { type: "direct" } },
    { type: "web_search_tool_result", tool_use_id: id, content },
  ];
  const first = results[0];
  if (!first) {
    blocks.push({ type: "text", text: text ?? `I found no results for "${query}".` });
    return blocks;
  }
  const cited = (first.snippet ?? first.title).slice(0, 150);
  const citation: Citation = {
    type: "web_search_result_location",
    cited_text: cited,
    encrypted_index: encryptContent(`${first.url}#0`),
    title: first.title,
    url: first.url,
  };
  blocks.push({ type: "text", text: text ?? `According to ${first.title}, ${cited}`, citations: [citation] });
  return blocks;
}
