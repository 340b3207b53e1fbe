// Turns the kept window into a message list the Messages API accepts. Stored history can
// hold things the API rejects (interrupted streams, empty blocks, tool calls that never
// got a result, a window that begins mid-conversation), so every rule below exists
// because the API answers 400 without it.
import type {
  ApiMessage,
  ContentBlock,
  EngineMessage,
  Role,
  ToolResultBlock,
} from "@/lib/context/types";
import { referenceText, wireFileBlock, type FileBody } from "./files";

export const INTERRUPTED_TOOL_RESULT = "interrupted: no result was recorded";

// The API rejects text blocks that are empty or whitespace-only, at top level and inside
// tool results alike.
/**
 * A block never sent: blank text, or thinking without a signature (imported from another app's
 * export, lib/import), which the API would refuse as not its own.
 */
function isBlankText(block: ContentBlock): boolean {
  return (block.type === "text" && block.text.trim() === "") || (block.type === "thinking" && block.signature === "");
}

function cleanBlock(block: ContentBlock): ContentBlock {
  if (block.type === "tool_result" && Array.isArray(block.content)) {
    return { ...block, content: block.content.filter((b) => b.type !== "text" || b.text.trim() !== "") };
  }
  return block;
}

function toolUseIds(blocks: readonly ContentBlock[]): string[] {
  const ids: string[] = [];
  for (const b of blocks) if (b.type === "tool_use") ids.push(b.id);
  return ids;
}

function syntheticResult(toolUseId: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, is_error: true, content: INTERRUPTED_TOOL_RESULT };
}

interface Draft {
  role: Role;
  content: ContentBlock[];
}

/**
 * Builds the list in one pass. Consecutive messages of one role are merged because the
 * API requires strict alternation (an interrupted reply followed by a retry, or a
 * message emptied by cleaning, leaves two in a row). Leading assistant messages are
 * dropped because the list must open with a user message. A tool_result is kept only if
 * it answers a tool_use in the assistant message just before it; anything else is an
 * "unexpected tool_use_id" error.
 */
function buildAlternating(messages: readonly EngineMessage[]): Draft[] {
  const out: Draft[] = [];
  // tool_use ids the current user message may answer, and those it already has answered.
  let answerable = new Set<string>();
  let answered = new Set<string>();

  for (const m of messages) {
    // An interrupted assistant message keeps its partial text: Claude should see what it
    // had already said, and the user saw it too.
    const blocks = m.content.filter((b) => !isBlankText(b)).map(cleanBlock);
    if (m.role === "assistant") {
      if (blocks.length === 0) continue;
      const last = out[out.length - 1];
      if (!last) continue;
      if (last.role === "assistant") last.content.push(...blocks);
      else out.push({ role: "assistant", content: blocks });
      continue;
    }

    const last = out[out.length - 1];
    if (!last || last.role === "assistant") {
      answerable = new Set(last ? toolUseIds(last.content) : []);
      answered = new Set();
    }
    const kept = blocks.filter((b) => {
      if (b.type !== "tool_result") return true;
      if (!answerable.has(b.tool_use_id) || answered.has(b.tool_use_id)) return false;
      answered.add(b.tool_use_id);
      return true;
    });
    if (kept.length === 0) continue;
    if (last && last.role === "user") last.content.push(...kept);
    else out.push({ role: "user", content: kept });
  }
  return out;
}

/**
 * Every tool_use must be answered in the very next user message, with the tool_result
 * blocks first. Calls whose result was never recorded (the stream or the tool died) get
 * an error result so Claude knows the call did not complete instead of the request failing.
 */
function pairToolCalls(drafts: Draft[]): Draft[] {
  const out: Draft[] = [];
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    if (d.role === "user") {
      out.push(d);
      continue;
    }
    out.push(d);
    const ids = toolUseIds(d.content);
    if (ids.length === 0) continue;
    const next = drafts[i + 1];
    const results = next ? next.content.filter((b) => b.type === "tool_result") : [];
    const answered = new Set(results.map((b) => (b.type === "tool_result" ? b.tool_use_id : "")));
    const synthetic = ids.filter((id) => !answered.has(id)).map(syntheticResult);
    if (next) {
      const others = next.content.filter((b) => b.type !== "tool_result");
      drafts[i + 1] = { role: "user", content: [...results, ...synthetic, ...others] };
    } else {
      out.push({ role: "user", content: synthetic });
    }
  }
  return out;
}

/**
 * A list ending in an assistant message is a prefill, and the API rejects a prefill
 * that ends in whitespace.
 */
function trimFinalAssistant(drafts: Draft[]): Draft[] {
  const last = drafts[drafts.length - 1];
  if (!last || last.role !== "assistant") return drafts;
  const tail = last.content[last.content.length - 1];
  if (tail.type !== "text") return drafts;
  // Blank blocks were already removed, so trimming never leaves an empty one.
  const content = [...last.content.slice(0, -1), { type: "text" as const, text: tail.text.trimEnd() }];
  return [...drafts.slice(0, -1), { role: "assistant", content }];
}

export function toApiMessages(messages: readonly EngineMessage[]): ApiMessage[] {
  return trimFinalAssistant(pairToolCalls(buildAlternating(messages)));
}

/** A message as it goes over the wire: Threadkeeper's own block kinds turned back into the API's. */
export interface WireMessage {
  role: "user" | "assistant" | "system";
  content: WireBlock[] | string;
}
export type WireBlock = { type: string } & Record<string, unknown>;

/** Threadkeeper's own notes on a block (a document's facts, a thinking block's prefix digest): never sent. */
function withoutNotes<T extends object>(b: T): T {
  if (!("threadkeeper" in b)) return b;
  const { threadkeeper, ...sent } = b as T & { threadkeeper?: unknown };
  void threadkeeper;
  return sent as T;
}

function wireBlock(b: Exclude<ContentBlock, { type: "system_message" }>, files: ReadonlyMap<string, FileBody> | undefined): WireBlock {
  if (b.type === "opaque") return b.block;
  if (b.type === "file_reference") return { type: "text", text: referenceText(b) };
  if (b.type === "thinking" || b.type === "redacted_thinking") return withoutNotes(b);
  if (b.type === "document" || b.type === "image") return withoutNotes(wireFileBlock(b, files) ?? b);
  if (b.type === "tool_result" && Array.isArray(b.content) && b.content.some((c) => "threadkeeper" in c)) {
    return { ...b, content: b.content.map((c) => withoutNotes(wireFileBlock(c, files) ?? c)) };
  }
  return b;
}

/**
 * The messages as the API takes them: a stored system-message block becomes a `role: "system"`
 * message in its place (splitting the message it was kept in), an opaque block is sent as it
 * came, Threadkeeper's notes on a document are removed, and a stored file's bytes (`files`, by
 * id) are put back in the API's own source (without them its digest reads the file's id).
 */
export function wireMessages(messages: readonly ApiMessage[], files?: ReadonlyMap<string, FileBody>): WireMessage[] {
  const out: WireMessage[] = [];
  for (const m of messages) {
    let run: WireBlock[] = [];
    const flush = () => {
      if (run.length > 0) out.push({ role: m.role, content: run });
      run = [];
    };
    for (const b of m.content) {
      if (b.type !== "system_message") {
        run.push(wireBlock(b, files));
        continue;
      }
      flush();
      out.push({ role: "system", content: b.content });
    }
    flush();
  }
  return out;
}
