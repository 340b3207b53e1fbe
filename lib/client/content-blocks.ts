// A message's content blocks as the items the chat draws, in order: consecutive text blocks as
// one run (so a reply cut into cited pieces reads as one text), each server or MCP tool call
// with its result, and every other block on its own. Blocks are read loosely: the content
// model keeps fields as they came and a block may miss one, so nothing here trusts a shape.
import { SERVER_RESULT_TYPES } from "@/lib/contract/messages";

/** A block as it came: an object whose fields are checked where they are read. */
export type Loose = Record<string, unknown>;

export function asRecord(v: unknown): Loose | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Loose) : null;
}

export function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export type RenderItem =
  | { kind: "text"; key: string; blocks: Loose[] }
  /** `ordinal`: which thinking block of the message (0 for the first), to find its timing. */
  | { kind: "thinking"; key: string; block: Loose; ordinal: number }
  /** A server tool (web search, web fetch, code execution…) and its result; either may be missing. */
  | { kind: "server_tool"; key: string; use: Loose | null; result: Loose | null }
  | { kind: "mcp_tool"; key: string; use: Loose | null; result: Loose | null }
  | { kind: "tool_use"; key: string; block: Loose }
  | { kind: "tool_result"; key: string; block: Loose }
  | { kind: "image"; key: string; block: Loose }
  | { kind: "document"; key: string; block: Loose }
  | { kind: "search_result"; key: string; block: Loose }
  | { kind: "system_message"; key: string; block: Loose }
  | { kind: "container_upload"; key: string; block: Loose }
  /** A file attached by reference: Claude was given one line naming it. */
  | { kind: "file_reference"; key: string; block: Loose }
  /** A block of a kind the chat does not draw: `type` names it, `value` is the block itself. */
  | { kind: "opaque"; key: string; type: string; value: unknown };

const SERVER_RESULTS: ReadonlySet<string> = new Set(SERVER_RESULT_TYPES);

const SINGLE = new Set(["tool_use", "tool_result", "image", "document", "search_result", "system_message", "container_upload", "file_reference"]);

/** The index of the result answering `id` among the blocks after `from`, or -1. */
function resultFor(blocks: readonly unknown[], from: number, id: string | null, kinds: (type: string) => boolean, taken: Set<number>): number {
  if (id === null) return -1;
  for (let j = from + 1; j < blocks.length; j++) {
    const b = asRecord(blocks[j]);
    if (b && !taken.has(j) && kinds(str(b.type) ?? "") && str(b.tool_use_id) === id) return j;
  }
  return -1;
}

/** The items a message's content is drawn as, in order. Anything not an array draws nothing. */
export function groupBlocks(content: unknown): RenderItem[] {
  const blocks = list(content);
  const items: RenderItem[] = [];
  const taken = new Set<number>();
  let thinking = 0;
  for (let i = 0; i < blocks.length; i++) {
    if (taken.has(i)) continue;
    const key = `b${i}`;
    const b = asRecord(blocks[i]);
    const type = b ? str(b.type) : null;
    if (!b || type === null) {
      items.push({ kind: "opaque", key, type: "unknown", value: blocks[i] });
      continue;
    }
    if (type === "text") {
      const last = items[items.length - 1];
      if (last?.kind === "text") last.blocks.push(b);
      else items.push({ kind: "text", key, blocks: [b] });
    } else if (type === "thinking" || type === "redacted_thinking") {
      items.push({ kind: "thinking", key, block: b, ordinal: thinking++ });
    } else if (type === "server_tool_use" || type === "mcp_tool_use") {
      const mcp = type === "mcp_tool_use";
      const j = resultFor(blocks, i, str(b.id), mcp ? (t) => t === "mcp_tool_result" : (t) => SERVER_RESULTS.has(t), taken);
      if (j >= 0) taken.add(j);
      const result = j >= 0 ? asRecord(blocks[j]) : null;
      items.push({ kind: mcp ? "mcp_tool" : "server_tool", key, use: b, result });
    } else if (SERVER_RESULTS.has(type)) {
      items.push({ kind: "server_tool", key, use: null, result: b });
    } else if (type === "mcp_tool_result") {
      items.push({ kind: "mcp_tool", key, use: null, result: b });
    } else if (type === "opaque") {
      const inner = asRecord(b.block);
      items.push({ kind: "opaque", key, type: (inner && str(inner.type)) ?? "unknown", value: inner ?? b.block });
    } else if (SINGLE.has(type)) {
      items.push({ kind: type as Exclude<RenderItem["kind"], "text" | "thinking" | "server_tool" | "mcp_tool" | "opaque">, key, block: b });
    } else {
      items.push({ kind: "opaque", key, type, value: b });
    }
  }
  return items;
}

/** The stored file an image or document holds (its bytes at /api/files/{id}), or null. */
export function storedFileId(block: Loose): string | null {
  const source = asRecord(block.source);
  return source && str(source.type) === "threadkeeper_file" ? str(source.file_id) : null;
}

/** The text of a run of text blocks, joined as Claude wrote it. */
export function runText(blocks: readonly Loose[]): string {
  return blocks.map((b) => str(b.text) ?? "").join("");
}

/** A web address that is safe to link: http(s) only, else null. */
export function safeHref(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** "example.com" for https://www.example.com/a/b; the text itself when it is no address. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** Whole seconds, at least 1: "12 s", "1 min 5 s". */
export function formatDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/**
 * The quiet row a thinking block shows as. `ms`: how long it took, when it was timed while
 * streaming; `live`: still thinking, `ms` is the time so far.
 */
export function thinkingLabel(block: Loose, ms: number | null, live = false): string {
  if (str(block.type) === "redacted_thinking") return "Reasoning redacted";
  if (live) return ms === null ? "Thinking…" : `Thinking… ${Math.floor(ms / 1000)} s`;
  const hidden = (str(block.thinking) ?? "").trim() === "";
  // Timed in this browser while it streamed, else as the server timed it when it was saved.
  const stored = (block.threadkeeper as { ms?: unknown } | undefined)?.ms;
  const took = ms ?? (typeof stored === "number" && stored >= 0 ? stored : null);
  const base = took === null ? "Thought" : `Thought for ${formatDuration(took)}`;
  return hidden ? `${base} (hidden)` : base;
}

/** The first `lines` lines of a text (blank lines at the start skipped), and whether more follows. */
export function firstLines(text: string, lines: number): { head: string; more: boolean } {
  const all = text.replace(/^\s*\n/, "").split("\n");
  return { head: all.slice(0, lines).join("\n"), more: all.length > lines };
}

/** A value as readable JSON; never throws (a cycle or a BigInt shows as its kind). */
export function prettyJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return `[${typeof v}]`;
  }
}

const ATTACHMENTS = new Set<RenderItem["kind"]>(["document", "image", "container_upload", "file_reference"]);

/**
 * A user message's items as the chat lays them out: what came before the typed text (a system
 * note that preceded it), attachments (files, images) above the bubble, the typed text in it,
 * and everything else after it.
 */
export function splitUserItems(items: readonly RenderItem[]): { before: RenderItem[]; attachments: RenderItem[]; text: RenderItem[]; after: RenderItem[] } {
  const firstText = items.findIndex((i) => i.kind === "text");
  const rest = (i: RenderItem) => !ATTACHMENTS.has(i.kind) && i.kind !== "text";
  return {
    before: firstText < 0 ? [] : items.slice(0, firstText).filter(rest),
    attachments: items.filter((i) => ATTACHMENTS.has(i.kind)),
    text: items.filter((i) => i.kind === "text"),
    after: (firstText < 0 ? items : items.slice(firstText)).filter(rest),
  };
}

/** Kinds the plain message view draws itself (text, the caller's tool calls and results). */
const PLAIN_KINDS = new Set<RenderItem["kind"]>(["tool_use", "tool_result"]);

/** Whether a message needs the block view: anything beyond uncited text and the caller's tools. */
export function needsBlockView(items: readonly RenderItem[]): boolean {
  return items.some((i) => (i.kind === "text" ? i.blocks.some((b) => list(b.citations).length > 0) : !PLAIN_KINDS.has(i.kind)));
}
