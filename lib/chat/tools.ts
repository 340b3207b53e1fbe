// The tools' executors. Which tools a request offers is data (lib/context/tools.ts); a tool
// Claude calls that was not offered is an error result, like an unknown one.
import type { ContentBlock, ToolResultBlock } from "@/lib/context/types";
import { RECALL_TOOL_NAME } from "@/lib/context/recall";
import type { ToolDef } from "@/lib/tokens/tokenizer";
import { recall, type RecallContext } from "./recall";

/** Who is asking and where: every tool runs as the session's user. */
export type ToolContext = RecallContext;

type Run = (input: unknown, ctx: ToolContext) => Promise<string>;

const EXECUTORS: ReadonlyMap<string, Run> = new Map([[RECALL_TOOL_NAME, recall]]);

export const MAX_TOOL_ROUNDS = 8;

/** Runs every tool_use of a reply; an unknown or unoffered tool, bad input or a failure becomes an error result Claude can read. */
export async function runToolUses(content: readonly ContentBlock[], offered: readonly ToolDef[], ctx: ToolContext): Promise<ToolResultBlock[]> {
  const names = new Set(offered.map((t) => t.name));
  const results: ToolResultBlock[] = [];
  for (const block of content) {
    if (block.type !== "tool_use") continue;
    const run = names.has(block.name) ? EXECUTORS.get(block.name) : undefined;
    if (!run) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: `Unknown tool: ${block.name}`, is_error: true });
      continue;
    }
    try {
      results.push({ type: "tool_result", tool_use_id: block.id, content: await run(block.input, ctx) });
    } catch (err) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: err instanceof Error ? err.message : String(err), is_error: true });
    }
  }
  return results;
}
