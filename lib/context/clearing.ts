// Context editing, the cheapest way to make room: old tool results are replaced by a short
// placeholder in what is sent (stored messages never change). What is cleared is everything up
// to a high-water mark on the session, which only moves when moving it clears at least
// CLEAR_AT_LEAST tokens, so the prompt cache breaks rarely and for something worth it. Pure.
import { toolResultText } from "./text";
import type { ContentBlock, EngineMessage, ToolResultBlock } from "./types";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

/** The newest tool results always stay as they are: Claude is most likely still using them. */
export const KEEP_RECENT_RESULTS = 3;
/** Raw tokens a move of the mark must clear; less is not worth re-writing the cached prefix. */
export const CLEAR_AT_LEAST = 4_000;

export const CLEARED_MARK = "[Tool result cleared";

export function placeholder(tokens: number): string {
  return `${CLEARED_MARK} to save context (about ${tokens.toLocaleString("en-US")} tokens). Call the tool again if you need it.]`;
}

function blockChars(b: ContentBlock): number {
  switch (b.type) {
    case "text":
      return b.text.length;
    case "tool_use":
      return b.name.length + JSON.stringify(b.input ?? {}).length;
    case "tool_result":
      return toolResultText(b).length;
    default:
      return 1_000;
  }
}

const isCleared = (b: ToolResultBlock) => typeof b.content === "string" && b.content.startsWith(CLEARED_MARK);

/** Tokens of each block, by its share of the message's characters: the stored count is never recounted. */
function blockTokens(m: EngineMessage): number[] {
  const chars = m.content.map(blockChars);
  const total = chars.reduce((a, b) => a + b, 0) || 1;
  return chars.map((c) => Math.round((m.tokenCount * c) / total));
}

interface Candidate {
  seq: number;
  index: number;
  tokens: number;
}

/** Tool results that could be cleared: not among the newest KEEP_RECENT_RESULTS, not in a protected message. */
function candidates(messages: readonly EngineMessage[]): Candidate[] {
  const all: Candidate[] = [];
  for (const m of messages) {
    if (m.role !== "user" || m.protected) continue;
    const tokens = blockTokens(m);
    m.content.forEach((b, index) => {
      if (b.type === "tool_result" && !isCleared(b)) all.push({ seq: m.seq, index, tokens: tokens[index] ?? 0 });
    });
  }
  return all.slice(0, Math.max(0, all.length - KEEP_RECENT_RESULTS));
}

/** What replacing a result saves: its tokens less the placeholder's. */
function saving(tokens: number): number {
  return Math.max(0, tokens - estimateTextTokens(placeholder(tokens)));
}

/**
 * Where the mark should move, or null: to the newest result that may be cleared, when the
 * results between the current mark and it save at least CLEAR_AT_LEAST tokens.
 */
export function nextClearingMark(messages: readonly EngineMessage[], clearedThrough: number): { through: number; saves: number } | null {
  const fresh = candidates(messages).filter((c) => c.seq > clearedThrough);
  const saves = fresh.reduce((n, c) => n + saving(c.tokens), 0);
  const last = fresh.at(-1);
  return last && saves >= CLEAR_AT_LEAST ? { through: last.seq, saves } : null;
}

export interface ClearedMessages {
  messages: EngineMessage[];
  /** Raw tokens saved per message seq (only messages that changed). */
  saved: Map<number, number>;
}

/**
 * The window as sent: tool results in messages up to `clearedThrough` replaced by a placeholder
 * (except the newest KEEP_RECENT_RESULTS and protected messages), token counts reduced to match.
 */
export function clearToolResults(messages: readonly EngineMessage[], clearedThrough: number): ClearedMessages {
  const saved = new Map<number, number>();
  if (clearedThrough <= 0) return { messages: [...messages], saved };
  const clear = new Map<number, Set<number>>();
  for (const c of candidates(messages)) {
    if (c.seq > clearedThrough) continue;
    const set = clear.get(c.seq) ?? new Set<number>();
    set.add(c.index);
    clear.set(c.seq, set);
  }
  if (clear.size === 0) return { messages: [...messages], saved };
  const out = messages.map((m) => {
    const which = clear.get(m.seq);
    if (!which) return m;
    const tokens = blockTokens(m);
    let cut = 0;
    const content = m.content.map((b, i): ContentBlock => {
      if (b.type !== "tool_result" || !which.has(i)) return b;
      const t = tokens[i] ?? 0;
      cut += saving(t);
      return { type: "tool_result", tool_use_id: b.tool_use_id, content: placeholder(t) };
    });
    saved.set(m.seq, cut);
    return { ...m, content, tokenCount: m.tokenCount - cut };
  });
  return { messages: out, saved };
}
