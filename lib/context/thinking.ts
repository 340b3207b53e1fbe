// Which of Claude's earlier thinking blocks a request sends back, by the API's rules for the
// model (lib/models.ts ThinkingInfo), and the digest that proves a block's prefix unchanged.
//
// - The thinking of the current tool loop is always sent back unchanged: the API requires it
//   (platform.claude.com/docs/en/build-with-claude/extended-thinking, "preserving thinking blocks").
// - Models that do not keep earlier thinking drop it from every earlier turn themselves; we drop
//   it too, so the request and the token bar hold what Claude reads.
// - Models with preserved thinking keep earlier blocks; on models with the prefix check
//   (platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks) a block is
//   valid only while system, tools and every message before it are what they were when Claude
//   wrote it: a compaction, a slide or a new system prompt invalidates it "and every later
//   thinking block". Each stored reply's thinking carries the digest of the request it answered
//   (`threadkeeper.prefix`, removed on the wire); a block whose digest no longer matches is
//   dropped with every later one, rather than letting the API refuse the request. A block a
//   client brought (an imported history) has no digest: it is sent, and the request asks the
//   API to drop it if it fails the check (`unverified`, lib/turn/request.ts). Pure.
import { createHash, type Hash } from "node:crypto";
import type { ThinkingInfo } from "@/lib/models";
import { wireMessages } from "./api-messages";
import type { ApiMessage, ContentBlock } from "./types";

const isThinking = (b: ContentBlock) => b.type === "thinking" || b.type === "redacted_thinking";

export const hasThinking = (content: readonly ContentBlock[]) => content.some(isThinking);

/** JSON with sorted keys and without cache_control, which the prefix check leaves out (and jsonb reorders). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key === "cache_control") return undefined;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  });
}

/** A running digest of a request's prefix: system and tools, then message after message. */
export class PrefixDigest {
  private readonly hash: Hash;

  constructor(system: unknown, tools: unknown) {
    this.hash = createHash("sha256").update(canonical({ system, tools }));
  }

  add(message: ApiMessage): void {
    for (const m of wireMessages([message])) this.hash.update(canonical(m));
  }

  /** The digest of what was added so far. */
  current(): string {
    return this.hash.copy().digest("base64url");
  }
}

/** The digest of a whole request: the prefix of the reply it gets. */
export function requestDigest(system: unknown, tools: unknown, messages: readonly ApiMessage[]): string {
  const d = new PrefixDigest(system, tools);
  for (const m of messages) d.add(m);
  return d.current();
}

/**
 * A reply's thinking blocks, marked with the digest of the request that produced them and, when
 * it was timed while streaming, how long each took (the app's "Thought for 12 s").
 */
export function markThinking(content: readonly ContentBlock[], digest: string, ms: readonly number[] = []): ContentBlock[] {
  let i = 0;
  return content.map((b) => {
    if (!isThinking(b)) return b;
    const took = ms[i++];
    return { ...b, threadkeeper: { prefix: digest, ...(took !== undefined ? { ms: Math.round(took) } : {}) } };
  });
}

function prefixOf(b: ContentBlock): string | undefined {
  const note = (b as { threadkeeper?: { prefix?: unknown } }).threadkeeper;
  return typeof note?.prefix === "string" ? note.prefix : undefined;
}

/** The blocks but Claude's thinking. */
export const withoutThinking = (content: readonly ContentBlock[]): ContentBlock[] => content.filter((b) => !isThinking(b));

const thinkingDropped = (m: ApiMessage): ApiMessage => ({ ...m, content: withoutThinking(m.content) });

/** Index of the message that opens the current turn: the last user message that is not only tool results. */
function currentTurnStart(messages: readonly ApiMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "user" && m.content.some((b) => b.type !== "tool_result")) return i;
  }
  return 0;
}

export interface SendableThinking {
  messages: ApiMessage[];
  /** Thinking blocks without a digest (a client's) are sent: only the API can tell whether they pass the prefix check. */
  unverified: boolean;
}

/**
 * The messages with the thinking the model may be sent: for a model that drops earlier thinking,
 * only the current tool loop's; with the prefix check, every block up to the first whose prefix
 * changed. An assistant message left empty by the drop keeps its other blocks' place.
 */
export function sendableThinking(messages: readonly ApiMessage[], model: ThinkingInfo, prefix: { system: unknown; tools: unknown }): SendableThinking {
  if (!messages.some((m) => m.role === "assistant" && m.content.some(isThinking))) return { messages: [...messages], unverified: false };
  if (!model.keepsEarlier) {
    const start = currentTurnStart(messages);
    return { messages: messages.map((m, i) => (i < start && m.role === "assistant" ? thinkingDropped(m) : m)), unverified: false };
  }
  if (!model.prefixCheck) return { messages: [...messages], unverified: false };
  const digest = new PrefixDigest(prefix.system, prefix.tools);
  let broken = false;
  let unverified = false;
  const sent = messages.map((m) => {
    let out = m;
    if (m.role === "assistant" && m.content.some(isThinking)) {
      const marks = m.content.filter(isThinking).map(prefixOf);
      if (!broken && marks.some((p) => p !== undefined && p !== digest.current())) broken = true;
      if (broken) out = thinkingDropped(m);
      else if (marks.some((p) => p === undefined)) unverified = true;
    }
    digest.add(out);
    return out;
  });
  return { messages: sent, unverified };
}

/** The beta that lets a request choose what a failed prefix check does (platform.claude.com/docs/en/build-with-claude/preserved-thinking). */
export const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/**
 * The thinking parameter for a request carrying unverified blocks: the caller's (or the model's
 * default, adaptive), asking the API to drop a block that fails the check instead of refusing
 * the request, unless the caller chose itself.
 */
export function dropFailingThinking(thinking: unknown): Record<string, unknown> {
  const given = thinking && typeof thinking === "object" ? (thinking as Record<string, unknown>) : { type: "adaptive" };
  return given.block_binding !== undefined ? given : { ...given, block_binding: { prefix_mismatch_behavior: "drop_block" } };
}
