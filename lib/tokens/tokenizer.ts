// Local token estimates. cl100k is not Claude's tokenizer, so every figure here is raw:
// callers multiply by the per-model calibration factor (see calibration.ts) before
// comparing against a window.
import { get_encoding, type Tiktoken } from "@dqbd/tiktoken";
import type { ContentBlock, DocumentBlock, Role, ToolResultBlock } from "@/lib/contract/messages";
import { imageTokens } from "./media";
import { countPlan } from "./plan";

/** A tool definition as sent in the Messages API `tools` array. */
export interface ToolDef {
  name: string;
  /** A server tool's dated type (web_search_20250305, …); a custom tool has none or "custom". */
  type?: string;
  description?: string;
  /** Absent on a server tool. A caller's definition keeps its other fields (defer_loading, strict, a server tool's settings): it is sent as it came. */
  input_schema?: unknown;
}

// Loading the cl100k ranks costs ~150 ms and several MB, so it happens on first use
// rather than at import: many routes import this module without ever counting.
let encoder: Tiktoken | null = null;
function getEncoder(): Tiktoken {
  if (!encoder) encoder = get_encoding("cl100k_base");
  return encoder;
}

/**
 * Loads the tables and runs a first count over prose and code: the first counts of real text
 * are several times slower than later ones. For start-up, so no request pays for it.
 */
export function warmTokenizer(): void {
  estimateTextTokens("Warming up: the parser's cursor, 42 retries at 1.5 s — `const x = f(y);` and https://example.com/a_b?c=1\n".repeat(20));
}

// Claude's framing around a message (role markers, block separators) is not visible
// in the text; a flat per-item allowance is enough because calibration absorbs the rest.
const MESSAGE_OVERHEAD = 4;
const TOOL_USE_OVERHEAD = 10;
const TOOL_RESULT_OVERHEAD = 5;
const TOOL_DEF_OVERHEAD = 10;

/**
 * The raw token count of pieces from countPlan. encode_ordinary treats "<|endoftext|>" in
 * user text as plain text instead of throwing, which is what a chat transcript needs.
 */
export function encodePieces(pieces: readonly string[]): number {
  const enc = getEncoder();
  let n = 0;
  for (const piece of pieces) n += enc.encode_ordinary(piece).length;
  return n;
}

/** The text's estimate from its pieces' raw count (however that count was taken). */
export function scaledCount(raw: number, scale: number): number {
  return scale === 1 ? raw : Math.ceil(raw * scale);
}

export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  const { pieces, scale } = countPlan(text);
  return scaledCount(encodePieces(pieces), scale);
}

/** What a count is made of: texts to encode and a fixed allowance (framing, images). */
export interface CountParts {
  texts: string[];
  fixed: number;
}

// Redacted thinking is encrypted: its length in base64 is the only size we can see.
const REDACTED_CHARS_PER_TOKEN = 4;
// A document of unknown size (a URL or a file id) is counted as a long one: overestimating is
// safe, underestimating overflows.
const UNKNOWN_DOCUMENT_TOKENS = 30_000;

function resultParts(content: ToolResultBlock["content"], parts: CountParts): void {
  if (content === undefined) return;
  if (typeof content === "string") {
    parts.texts.push(content);
    return;
  }
  // Text parts are read as one text, as they were before results could hold more than text.
  const texts = content.flatMap((p) => (p.type === "text" ? [p.text] : []));
  if (texts.length > 0) parts.texts.push(texts.join("\n"));
  for (const p of content) {
    if (p.type === "text") continue;
    else if (p.type === "image") parts.fixed += imageTokens(p.threadkeeper ?? null);
    else if (p.type === "document") documentParts(p, parts);
    else parts.texts.push(p.title, ...p.content.map((c) => c.text));
  }
}

function documentParts(block: DocumentBlock, parts: CountParts): void {
  if (block.threadkeeper) parts.fixed += block.threadkeeper.tokens;
  else if (block.source.type === "text") parts.texts.push(block.source.data);
  else if (block.source.type === "content") {
    if (typeof block.source.content === "string") parts.texts.push(block.source.content);
    else for (const c of block.source.content) if (c.type === "text") parts.texts.push(c.text);
    else parts.fixed += imageTokens(null);
  } else parts.fixed += UNKNOWN_DOCUMENT_TOKENS;
  if (block.title) parts.texts.push(block.title);
  if (block.context) parts.texts.push(block.context);
}

export function blocksParts(blocks: ContentBlock[]): CountParts {
  const parts: CountParts = { texts: [], fixed: 0 };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.texts.push(block.text);
        break;
      case "tool_use":
      case "server_tool_use":
      case "mcp_tool_use":
        parts.texts.push(block.name, JSON.stringify(block.input) ?? "");
        parts.fixed += TOOL_USE_OVERHEAD;
        break;
      case "tool_result":
        resultParts(block.content, parts);
        parts.fixed += TOOL_RESULT_OVERHEAD;
        break;
      case "image":
        parts.fixed += imageTokens(block.threadkeeper ?? null);
        break;
      case "document":
        documentParts(block, parts);
        break;
      case "search_result":
        parts.texts.push(block.source, block.title, ...block.content.map((c) => c.text));
        break;
      case "thinking":
        parts.texts.push(block.thinking);
        break;
      case "redacted_thinking":
        parts.fixed += Math.ceil(block.data.length / REDACTED_CHARS_PER_TOKEN);
        break;
      case "system_message":
        parts.texts.push(typeof block.content === "string" ? block.content : block.content.map((c) => c.text).join("\n"));
        parts.fixed += MESSAGE_OVERHEAD;
        break;
      case "opaque":
        parts.texts.push(JSON.stringify(block.block));
        break;
      default:
        // The results of server tools and the MCP connector, and file uploads: counted as the JSON Claude reads.
        parts.texts.push(JSON.stringify(block));
        parts.fixed += TOOL_RESULT_OVERHEAD;
    }
  }
  return parts;
}

// The role is part of the signature so callers never need to know that both roles cost
// the same framing today; if that changes only this function does.
export function messageParts(role: Role, blocks: ContentBlock[]): CountParts {
  void role;
  const parts = blocksParts(blocks);
  parts.fixed += MESSAGE_OVERHEAD;
  return parts;
}

export function partsTokens(parts: CountParts): number {
  let total = parts.fixed;
  for (const text of parts.texts) total += estimateTextTokens(text);
  return total;
}

export function estimateBlocksTokens(blocks: ContentBlock[]): number {
  return partsTokens(blocksParts(blocks));
}

export function estimateMessageTokens(role: Role, blocks: ContentBlock[]): number {
  return partsTokens(messageParts(role, blocks));
}

export function estimateSystemTokens(system: string): number {
  return estimateTextTokens(system);
}

export function estimateToolsTokens(tools: readonly ToolDef[]): number {
  let total = 0;
  for (const tool of tools) {
    total +=
      estimateTextTokens(tool.name) +
      estimateTextTokens(tool.description ?? "") +
      estimateTextTokens(JSON.stringify(tool.input_schema) ?? "") +
      TOOL_DEF_OVERHEAD;
  }
  return total;
}
