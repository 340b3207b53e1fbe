// Where a request carries prompt-cache breakpoints (`cache_control`). The API caches the
// prefix up to each breakpoint (tools, then system, then messages) and on the next request
// reads the longest cached prefix at a breakpoint or up to 20 blocks before one. A long
// conversation resends everything each turn, so nearly all of it can be read at a tenth of
// the price instead of paid in full.
import type { CacheBreak } from "@/lib/contract/context";
import { toolResultText } from "./text";
import type { ApiMessage, ContentBlock } from "./types";

/** The API accepts at most four breakpoints per request. */
export const MAX_BREAKPOINTS = 4;

export interface CachePlanInput {
  /** Calibrated tokens of the stable start of the request: tools, system prompt and memories. */
  baseTokens: number;
  /** Calibrated tokens of the active summary's system block (0 without one). */
  summaryTokens: number;
  /**
   * Calibrated tokens of the canvas block after the summary (0 without one). It is never
   * marked: it changes whenever the canvas does, and after the summary a change there leaves
   * the cached tools, system prompt and summary intact.
   */
  canvasTokens?: number;
  messages: readonly ApiMessage[];
  /** Calibrated tokens per raw token, to size messages from their text. */
  factor: number;
  /** The model's shortest cacheable prefix: a breakpoint before it would write nothing. */
  minCacheTokens: number;
  /**
   * Indexes of messages that carry attached files (images, PDFs, text files), ascending. The
   * newest gets a breakpoint of its own, so the file is read from the cache even when what
   * follows it changes (a slide, cleared tool results, dropped thinking) or a turn adds more
   * than the lookback reaches.
   */
  fileMessages?: readonly number[];
}

export interface CachePlan {
  /** Mark the end of the stable system block (it also covers the tools before it). */
  base: boolean;
  /** Mark the end of the summary block. */
  summary: boolean;
  /** Indexes of messages whose last block is marked, ascending. */
  messages: number[];
}

/**
 * Up to four breakpoints, each only where its prefix is long enough to be cached:
 * 1. after tools + system + memories, which change only when memories are loaded;
 * 2. after the summary, which changes only at compaction;
 * 3. on the last message, so this whole request is cached for the next one;
 * 4. on the message that ended the previous request (two back: its reply and this message
 *    follow it), so the next read lands there even when a turn added more than the API's
 *    20-block lookback (long tool loops);
 * 5. on the newest message carrying a file, so a resent file is read, not written again, even
 *    when the messages after it change (taking the summary's place when all four are wanted).
 * Stable parts come first, so a compaction rewrites the summary and messages but still reads
 * tools and system from the cache.
 */
export function planCacheBreakpoints(input: CachePlanInput): CachePlan {
  const min = input.minCacheTokens;
  const plan: CachePlan = { base: input.baseTokens >= min, summary: false, messages: [] };
  let prefix = input.baseTokens + input.summaryTokens;
  plan.summary = input.summaryTokens > 0 && prefix >= min;

  prefix += input.canvasTokens ?? 0;
  const ends: number[] = [];
  for (const m of input.messages) {
    prefix += Math.ceil(approxRawTokens(m.content) * input.factor);
    ends.push(prefix);
  }
  const last = input.messages.length - 1;
  const previous = last - 2;
  const file = input.fileMessages?.at(-1);
  // By worth: the whole request, the newest file, the previous request's end; the summary's own
  // breakpoint gives way to them (a breakpoint after it also caches it).
  const wanted = [last, file, previous >= 0 && input.messages[previous].role === "user" ? previous : undefined];
  const picked = new Set<number>();
  for (const i of wanted) {
    if (i === undefined || i < 0 || ends[i] < min) continue;
    if (Number(plan.base) + Number(plan.summary) + picked.size >= MAX_BREAKPOINTS) plan.summary = false;
    if (Number(plan.base) + picked.size < MAX_BREAKPOINTS) picked.add(i);
  }
  plan.messages = [...picked].sort((a, b) => a - b);
  return plan;
}

export function breakpointCount(plan: CachePlan): number {
  return Number(plan.base) + Number(plan.summary) + plan.messages.length;
}

export interface SystemBlock {
  type: "text";
  text: string;
  cache_control?: { type: "ephemeral" };
}

/**
 * The system prompt as blocks: the stable part, then the summary, each marked as planned, then
 * the canvas (unmarked: see CachePlanInput.canvasTokens).
 */
export function systemBlocks(base: string, summary: string, plan: CachePlan, canvas = ""): SystemBlock[] {
  const blocks: SystemBlock[] = [];
  if (base) blocks.push(mark({ type: "text", text: base }, plan.base));
  if (summary) blocks.push(mark({ type: "text", text: summary }, plan.summary));
  if (canvas) blocks.push({ type: "text", text: canvas });
  return blocks;
}

/** Copies of the messages with the planned ones' last block marked; the input is not changed. */
export function markMessages(messages: readonly ApiMessage[], plan: CachePlan): ApiMessage[] {
  const marked = new Set(plan.messages);
  return messages.map((m, i) => {
    if (!marked.has(i) || m.content.length === 0) return m;
    // Thinking blocks and Threadkeeper's own kinds take no cache_control: the breakpoint goes on
    // the last block that does, which caches the same prefix or a little less.
    const at = m.content.findLastIndex((b) => !UNMARKABLE.has(b.type));
    if (at < 0) return m;
    const content = m.content.slice();
    content[at] = mark({ ...content[at] }, true);
    return { ...m, content };
  });
}

const UNMARKABLE: ReadonlySet<string> = new Set(["thinking", "redacted_thinking", "system_message", "opaque"]);

function mark<T extends object>(block: T, on: boolean): T {
  return on ? { ...block, cache_control: { type: "ephemeral" } } : block;
}

/**
 * About four characters per token: the plan needs only to know whether a prefix clears the
 * minimum, and tokenizing the window again on every request would cost more than it tells.
 */
function approxRawTokens(content: readonly ContentBlock[]): number {
  let chars = 0;
  for (const b of content) {
    if (b.type === "text") chars += b.text.length;
    else if (b.type === "tool_use") chars += JSON.stringify(b.input ?? null).length + b.name.length;
    else if (b.type === "tool_result") chars += toolResultText(b).length;
    else if (b.type === "thinking") chars += b.thinking.length;
    else if (b.type === "document" && b.threadkeeper) chars += b.threadkeeper.tokens * 4;
    // Images cost by pixel area; about 1,500 tokens for a typical screenshot.
    else chars += 6_000;
  }
  return Math.ceil(chars / 4);
}

/** A cached prefix lives five minutes after its last use (the API's default lifetime). */
export const CACHE_TTL_MS = 5 * 60 * 1000;

/** USD per million tokens, as in the model registry. */
interface CachePrices {
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

export interface CacheBreakInput {
  /** When the session's last request was sent; its prefix is cached until CACHE_TTL_MS after. */
  lastRequestAt: Date | null;
  now: Date;
  /** Tokens before the summary (tools, system prompt, memories): still read from the cache afterwards. */
  stableTokens: number;
  preTokens: number;
  postTokens: number;
  price: CachePrices;
}

export function isCacheWarm(lastRequestAt: Date | null, now: Date): boolean {
  return lastRequestAt !== null && now.getTime() - lastRequestAt.getTime() < CACHE_TTL_MS;
}

/**
 * The price of changing the prefix. Warm: without compacting, the next request would read the
 * whole prefix; after it, it reads the stable part and writes the rest again. Cold: the next
 * request writes its whole prefix either way, so the shorter one is cheaper at once.
 */
export function cacheBreak(input: CacheBreakInput): CacheBreak {
  const write = input.price.cacheWritePerMTok / 1e6;
  const read = input.price.cacheReadPerMTok / 1e6;
  const warm = isCacheWarm(input.lastRequestAt, input.now);
  const stable = Math.min(input.stableTokens, input.postTokens);
  const rewrite = warm ? input.postTokens - stable : input.postTokens;
  const breakCost = warm ? rewrite * write + stable * read - input.preTokens * read : (input.postTokens - input.preTokens) * write;
  const saving = Math.max(0, input.preTokens - input.postTokens) * read;
  const payback = breakCost <= 0 ? 0 : saving > 0 ? Math.ceil(breakCost / saving) : Number.POSITIVE_INFINITY;
  return {
    warm,
    rewrite_tokens: rewrite,
    break_cost_usd: round6(breakCost),
    saving_per_turn_usd: round6(saving),
    payback_turns: Number.isFinite(payback) ? payback : -1,
  };
}

/**
 * Automatic compaction waits for the threshold while the cache is warm (condensing earlier
 * would throw away a cached prefix that is still cheap to read), but after a pause long
 * enough for the cache to expire nothing is lost by condensing now: it starts this many
 * points of capacity before the threshold.
 */
export const COLD_CACHE_EARLY_POINTS = 10;

export function autoCompactThresholdPercent(thresholdPercent: number, warm: boolean): number {
  return warm ? thresholdPercent : Math.max(0, thresholdPercent - COLD_CACHE_EARLY_POINTS);
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
