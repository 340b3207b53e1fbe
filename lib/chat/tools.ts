import type { ContentBlock, ToolResultBlock } from "@/lib/context/types";
import type { ToolDef } from "@/lib/tokens/tokenizer";

interface Tool {
  definition: ToolDef;
  run(input: unknown): Promise<string>;
}

/** Tools offered to Claude. None ship yet; the turn loop already runs them when some do. */
const TOOLS: ReadonlyMap<string, Tool> = new Map();

export const MAX_TOOL_ROUNDS = 8;

/** Runs every tool_use of a reply; an unknown tool or a failure becomes an error result Claude can read. */
export async function runToolUses(content: readonly ContentBlock[]): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for (const block of content) {
    if (block.type !== "tool_use") continue;
    const tool = TOOLS.get(block.name);
    if (!tool) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: `Unknown tool: ${block.name}`, is_error: true });
      continue;
    }
    try {
      results.push({ type: "tool_result", tool_use_id: block.id, content: await tool.run(block.input) });
    } catch (err) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: String(err), is_error: true });
    }
  }
  return results;
}
