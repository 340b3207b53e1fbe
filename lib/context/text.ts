import type { ContentBlock, ToolResultBlock } from "./types";

/** A tool result's text, whether it came as one string or as text blocks. */
export function toolResultText(b: ToolResultBlock): string {
  return typeof b.content === "string" ? b.content : b.content.map((c) => c.text).join("\n");
}

/** Only what was written as text: no tool calls, results or images. */
export function typedText(blocks: readonly ContentBlock[], separator = "\n"): string {
  return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(separator);
}

/** The plain text of a message, as shown in lists and searched; tool traffic is summarized. */
export function blocksToText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case "text":
          return b.text;
        case "tool_use":
          return `[tool: ${b.name}]`;
        case "tool_result":
          return toolResultText(b);
        case "image":
          return "[image]";
      }
    })
    .filter((s) => s !== "")
    .join("\n");
}
