import type { ContentBlock, ToolResultBlock } from "./types";

type ResultPart = Exclude<ToolResultBlock["content"], string | undefined>[number];

function partText(p: ResultPart): string {
  switch (p.type) {
    case "text":
      return p.text;
    case "image":
      return "[image]";
    case "document":
      return documentText(p);
    case "search_result":
      return [p.title, ...p.content.map((c) => c.text)].join("\n");
  }
}

/** A tool result's text, whether it came as one string or as blocks (or, as the API allows, not at all). */
export function toolResultText(b: ToolResultBlock): string {
  return typeof b.content === "string" ? b.content : (b.content ?? []).map(partText).join("\n");
}

/** A document as text: its title, then what Threadkeeper read of it (a PDF's extracted text). */
export function documentText(b: Extract<ContentBlock, { type: "document" }>): string {
  const pages = b.threadkeeper ? `, ${b.threadkeeper.pages} page${b.threadkeeper.pages === 1 ? "" : "s"}` : "";
  const title = `[document${b.title ? `: ${b.title}` : ""}${pages}]`;
  const body = b.threadkeeper?.text ?? (b.source.type === "text" ? b.source.data : b.source.type === "content" && typeof b.source.content === "string" ? b.source.content : "");
  return body ? `${title}\n${body}` : title;
}

/** What a server tool's result says in words: the titles and addresses it found, or its output. */
function serverResultText(content: unknown): string {
  if (!Array.isArray(content)) {
    const c = content as { stdout?: unknown; url?: unknown; type?: unknown } | null;
    if (c && typeof c.stdout === "string") return c.stdout;
    if (c && typeof c.url === "string") return c.url;
    return "";
  }
  return content
    .map((r: { title?: unknown; url?: unknown }) => [r.title, r.url].filter((v) => typeof v === "string").join(" "))
    .filter(Boolean)
    .join("\n");
}

/** Only what was written as text: no tool calls, results, images or thinking. */
export function typedText(blocks: readonly ContentBlock[], separator = "\n"): string {
  return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(separator);
}

/**
 * The plain text of a message, as shown in lists, searched and read by summaries. Tool traffic
 * is summarized; Claude's thinking and system messages are left out (neither is what was said).
 */
export function blocksToText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b): string => {
      switch (b.type) {
        case "text":
          return b.text;
        case "tool_use":
        case "server_tool_use":
        case "mcp_tool_use":
          return `[tool: ${b.name}]`;
        case "tool_result":
          return toolResultText(b);
        case "image":
          return b.threadkeeper?.name ? `[image: ${b.threadkeeper.name}]` : "[image]";
        case "file_reference":
          return `[file: ${b.name}]`;
        case "document":
          return documentText(b);
        case "search_result":
          return partText(b);
        case "web_search_tool_result":
        case "web_fetch_tool_result":
        case "code_execution_tool_result":
        case "bash_code_execution_tool_result":
        case "text_editor_code_execution_tool_result":
        case "tool_search_tool_result":
        case "mcp_tool_result":
          return serverResultText(b.content);
        case "container_upload":
          return "[file]";
        case "thinking":
        case "redacted_thinking":
        case "system_message":
        case "opaque":
          return "";
      }
    })
    .filter((s) => s !== "")
    .join("\n");
}

/** A system message's text, whether it came as a string or as text blocks. */
export function systemMessageText(b: Extract<ContentBlock, { type: "system_message" }>): string {
  return typeof b.content === "string" ? b.content : b.content.map((c) => c.text).join("\n");
}
