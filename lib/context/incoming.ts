// A client's messages as Threadkeeper stores them: every block kept whole except the client's
// cache_control (Threadkeeper places its own breakpoints, lib/context/prompt-cache.ts), a block of
// a kind the contract does not know kept opaque, and mid-conversation system messages folded into
// the message beside them (lib/contract/messages.ts, system_message). Pure.
import { KNOWN_BLOCK_TYPES } from "@/lib/contract/messages";
import type { ContentBlock, Role } from "./types";

/** A message as a client sends it: the contract's, loosely typed. */
export interface IncomingMessage {
  role: Role | "system";
  content: string | readonly ({ type: string } & Record<string, unknown>)[];
}

function withoutCacheControl<T extends object>(o: T): T {
  if (!("cache_control" in o)) return o;
  const { cache_control, ...rest } = o as T & { cache_control?: unknown };
  void cache_control;
  return rest as T;
}

/** One block of a client's message as stored. */
export function incomingBlock(b: { type: string } & Record<string, unknown>): ContentBlock {
  const block = withoutCacheControl(b);
  if (!KNOWN_BLOCK_TYPES.has(block.type)) return { type: "opaque", block };
  if (block.type === "tool_result" && Array.isArray(block.content)) {
    return { ...block, content: (block.content as object[]).map(withoutCacheControl) } as ContentBlock;
  }
  // The contract checked the known kinds' fields before this (lib/contract/anthropic.ts).
  return block as ContentBlock;
}

function systemBlock(content: IncomingMessage["content"]): ContentBlock {
  return {
    type: "system_message",
    content: typeof content === "string" ? content : content.map((b) => ({ type: "text" as const, text: String(b.text ?? "") })),
  };
}

/**
 * The messages as stored, in order. A system message joins the user message before it (Claude
 * Code sends its environment after the user's words) or else the message after it; its place
 * inside that message is kept, so it goes back to Claude where the client put it.
 */
export function incomingMessages(messages: readonly IncomingMessage[]): { role: Role; content: ContentBlock[] }[] {
  const out: { role: Role; content: ContentBlock[] }[] = [];
  let pending: ContentBlock[] = [];
  for (const m of messages) {
    if (m.role === "system") {
      const last = out[out.length - 1];
      if (last && last.role === "user" && pending.length === 0) last.content.push(systemBlock(m.content));
      else pending.push(systemBlock(m.content));
      continue;
    }
    const blocks = typeof m.content === "string" ? (m.content === "" ? [] : [{ type: "text" as const, text: m.content }]) : m.content.map(incomingBlock);
    out.push({ role: m.role, content: [...pending, ...blocks] });
    pending = [];
  }
  const last = out[out.length - 1];
  if (pending.length > 0 && last) last.content.push(...pending);
  return out;
}
