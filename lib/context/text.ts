import type { ContentBlock } from "./types";

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
          return typeof b.content === "string" ? b.content : b.content.map((c) => c.text).join("\n");
        case "image":
          return "[image]";
      }
    })
    .filter((s) => s !== "")
    .join("\n");
}
