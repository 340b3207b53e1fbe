// The tools' executors. Which tools a request offers is data (lib/context/tools.ts); a tool
// Claude calls that was not offered is an error result, like an unknown one.
import "server-only";
import { z } from "zod";
import { isCanvasTool } from "@/lib/canvas/tools";
import type { CanvasStreamEvent } from "@/lib/contract";
import { blocksToText } from "@/lib/context/text";
import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { RECALL_TOOL_NAME } from "@/lib/context/recall";
import { OPEN_FILE_TOOL_NAME } from "@/lib/context/files";
import { openFile } from "@/lib/operations/file-open";
import { withUser } from "@/lib/db";
import { appendMessage, type MessageRow } from "@/lib/db/messages";
import { estimateMessageTokens, type ToolDef } from "@/lib/tokens/tokenizer";
import { runCanvasCalls } from "@/lib/operations/canvas";
import { recall, type RecallContext } from "./recall";

/** Who is asking and where: every tool runs as the session's user. */
export type ToolContext = RecallContext;

type Run = (input: unknown, ctx: ToolContext) => Promise<ToolResultBlock["content"]>;

const EXECUTORS: ReadonlyMap<string, Run> = new Map<string, Run>([
  [RECALL_TOOL_NAME, recall],
  [OPEN_FILE_TOOL_NAME, (input, ctx) => openFile(ctx.userId, ctx.sessionId, input)],
]);

export const MAX_TOOL_ROUNDS = 8;

/** A canvas tool this request offered: answered in the tool_result message's transaction. */
const offeredCanvas = (names: Set<string>) => (name: string) => names.has(name) && isCanvasTool(name);

/**
 * Runs every tool_use of a reply but the offered canvas tools (which change stored state and
 * so run inside the tool_result message's transaction: answerToolUses); an unknown or
 * unoffered tool, bad input or a failure becomes an error result Claude can read.
 */
export async function runToolUses(content: readonly ContentBlock[], offered: readonly ToolDef[], ctx: ToolContext): Promise<ToolResultBlock[]> {
  const names = new Set(offered.map((t) => t.name));
  const canvas = offeredCanvas(names);
  const results: ToolResultBlock[] = [];
  for (const block of content) {
    if (block.type !== "tool_use" || canvas(block.name)) continue;
    const run = names.has(block.name) ? EXECUTORS.get(block.name) : undefined;
    if (!run) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: `Unknown tool: ${block.name}`, is_error: true });
      continue;
    }
    try {
      results.push({ type: "tool_result", tool_use_id: block.id, content: await run(block.input, ctx) });
    } catch (err) {
      const message = err instanceof z.ZodError ? `Invalid input: ${err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}` : err instanceof Error ? err.message : String(err);
      results.push({ type: "tool_result", tool_use_id: block.id, content: message, is_error: true });
    }
  }
  return results;
}

/**
 * Answers a reply's tool calls with one tool_result message. Read-only tools run first,
 * outside any transaction (they query on their own); the canvas calls apply to the locked
 * snapshot, and their events, the new snapshot and the message commit together, so the
 * canvas never shows a change whose result Claude did not get, nor the reverse.
 */
export async function answerToolUses(
  content: readonly ContentBlock[],
  offered: readonly ToolDef[],
  ctx: ToolContext & { canvasBudget: number },
): Promise<{ message: MessageRow; canvas: CanvasStreamEvent | null }> {
  const others = await runToolUses(content, offered, ctx);
  const canvas = offeredCanvas(new Set(offered.map((t) => t.name)));
  const canvasBlocks = content.filter((b): b is ToolUseBlock => b.type === "tool_use" && canvas(b.name));
  return withUser(ctx.userId, async (tx) => {
    const round = canvasBlocks.length ? await runCanvasCalls(tx, ctx.userId, ctx.sessionId, ctx.canvasBudget, canvasBlocks) : null;
    const byId = new Map(others.map((r) => [r.tool_use_id, r]));
    for (const [id, r] of round?.results ?? []) byId.set(id, r);
    // In the order Claude called them: the API pairs results with calls by id, a reader by position.
    const results = content.flatMap((b) => (b.type === "tool_use" && byId.has(b.id) ? [byId.get(b.id) as ToolResultBlock] : []));
    const message = await appendMessage(tx, ctx.userId, ctx.sessionId, {
      role: "user",
      content: results,
      text: blocksToText(results),
      tokenCount: estimateMessageTokens("user", results),
      status: "complete",
      startsTurn: false,
    });
    return { message, canvas: round ? await round.commit(message.seq) : null };
  });
}
