/**
 * The fake's prompt cache, modelled on the real API's documented behaviour:
 * - a request is a sequence of blocks: tools, then system blocks, then each message's blocks;
 * - a block with `cache_control` is a breakpoint: the prefix up to and including it is written
 *   to the cache (when it is at least the model's minimum length) for five minutes;
 * - a request reads the longest cached prefix that ends at one of its breakpoints or at one of
 *   the 20 blocks before a breakpoint; a read refreshes the entry's lifetime;
 * - usage then splits the input: `cache_read_input_tokens` (the prefix read),
 *   `cache_creation_input_tokens` (from there to the last breakpoint written), and
 *   `input_tokens` (the rest), summing to the request's total;
 * - more than 4 breakpoints is a 400.
 * Prefix tokens are the fake tokenizer's count of the blocks' text, so the three parts always
 * add up to what count_tokens says for the same body.
 */
import { createHash } from "node:crypto";
import { blockTokens, fakeTokenCount } from "./tokenizer";

export const MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;
const TTL_MS = 5 * 60 * 1000;

/** Shortest cacheable prefix per model, as the API documents them; others default to 1,024. */
const MIN_TOKENS: Record<string, number> = {
  "claude-haiku-4-5": 4096,
  "claude-haiku-5-5": 4096,
  "claude-opus-4-5": 4096,
  "claude-opus-5-5": 512,
  "claude-fable-5-1": 512,
};

export interface CacheSplit {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

interface Block {
  /** Hash of every block up to and including this one (and the model). */
  prefixHash: string;
  /** Tokens of every block up to and including this one. */
  prefixTokens: number;
  breakpoint: boolean;
}

export class BreakpointLimitError extends Error {}

export class FakePromptCache {
  private entries = new Map<string, number>();
  private now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  reset(): void {
    this.entries.clear();
  }

  /** Forget everything, as if five minutes had passed (for tests of a cold cache). */
  expireAll(): void {
    this.entries.clear();
  }

  /** Splits `totalTokens` of a request into read, written and uncached parts, and records the writes. */
  apply(request: { model: string; tools: unknown[]; system?: unknown; messages: { content: unknown }[] }, totalTokens: number): CacheSplit {
    const blocks = this.blocksOf(request);
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (breakpoints.length > MAX_BREAKPOINTS) {
      throw new BreakpointLimitError(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`);
    }
    const now = this.now();
    for (const [hash, expires] of this.entries) if (expires <= now) this.entries.delete(hash);

    let read = 0;
    for (const bp of breakpoints) {
      for (let i = bp; i >= Math.max(0, bp - LOOKBACK_BLOCKS); i--) {
        const b = blocks[i];
        if (this.entries.has(b.prefixHash)) {
          if (b.prefixTokens > read) read = b.prefixTokens;
          this.entries.set(b.prefixHash, now + TTL_MS);
          break;
        }
      }
    }
    const min = MIN_TOKENS[request.model] ?? 1024;
    let written = read;
    for (const bp of breakpoints) {
      const b = blocks[bp];
      if (b.prefixTokens < min) continue;
      this.entries.set(b.prefixHash, now + TTL_MS);
      if (b.prefixTokens > written) written = b.prefixTokens;
    }
    read = Math.min(read, totalTokens);
    written = Math.min(written, totalTokens);
    return { cache_read_input_tokens: read, cache_creation_input_tokens: written - read, input_tokens: totalTokens - written };
  }

  private blocksOf(request: { model: string; tools: unknown[]; system?: unknown; messages: { content: unknown }[] }): Block[] {
    const raw: unknown[] = [...request.tools];
    if (typeof request.system === "string") raw.push({ type: "text", text: request.system });
    else if (Array.isArray(request.system)) raw.push(...request.system);
    for (const m of request.messages) {
      if (typeof m.content === "string") raw.push({ type: "text", text: m.content });
      else if (Array.isArray(m.content)) raw.push(...m.content, { type: "message_end" });
    }
    const hash = createHash("sha256").update(request.model);
    let tokens = 0;
    return raw.map((block) => {
      const { cache_control: cc, ...rest } = isRecord(block) ? block : { value: block };
      hash.update(JSON.stringify(rest));
      tokens += isRecord(block) && "name" in block && "input_schema" in block ? fakeTokenCount(JSON.stringify(rest)) : blockTokens(block);
      return { prefixHash: hash.copy().digest("hex"), prefixTokens: tokens, breakpoint: cc !== undefined };
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
