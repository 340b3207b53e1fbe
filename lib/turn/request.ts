// The Messages API request for a window: the system prompt as blocks (stable part, then the
// summary) and the messages, with prompt-cache breakpoints where they pay.
import "server-only";
import { toApiMessages } from "@/lib/context/api-messages";
import { breakpointCount, markMessages, planCacheBreakpoints, systemBlocks } from "@/lib/context/prompt-cache";
import { dropSuperseded } from "@/lib/context/retries";
import { offeredTools } from "@/lib/context/tools";
import type { EngineMessage } from "@/lib/context/types";
import { env } from "@/lib/env";
import type { LlmRequest } from "@/lib/llm/client";
import { calibrate } from "@/lib/tokens/calibration";
import { stableRawTokens, summaryBlock, type SessionContext } from "@/lib/operations/session-context";

export interface BuiltRequest {
  request: LlmRequest;
  /** How many `cache_control` breakpoints it carries (0 with caching off). */
  breakpoints: number;
}

/** Prompt caching is on unless THREADKEEPER_PROMPT_CACHING=off (the cost benchmark's baseline). */
export function promptCachingEnabled(): boolean {
  return env().THREADKEEPER_PROMPT_CACHING !== "off";
}

/**
 * `current`: the turn being answered again (retry: its interrupted reply is replaced;
 * regenerate: all its replies are).
 * The stable system part (prompt and memories) comes before the summary so a compaction,
 * which rewrites the summary, still reads the part before it from the cache; the canvas,
 * which changes most often, comes last.
 */
export function buildRequest(
  ctx: SessionContext,
  window: readonly EngineMessage[],
  current: { turn: number; regenerate: boolean } | null,
): BuiltRequest {
  const s = ctx.session;
  const base = s.system_prompt + (s.memory_text ?? "");
  const summary = s.summary_text ? summaryBlock(s.summary_text) : "";
  const messages = toApiMessages(dropSuperseded(window, current));
  const factor = ctx.calibration.factor;
  const plan = promptCachingEnabled()
    ? planCacheBreakpoints({
        baseTokens: calibrate(stableRawTokens(ctx), factor),
        summaryTokens: calibrate(s.summary_tokens, factor),
        canvasTokens: calibrate(s.canvas_tokens, factor),
        messages,
        factor,
        minCacheTokens: ctx.model.minCacheTokens,
      })
    : { base: false, summary: false, messages: [] };
  return {
    request: {
      model: ctx.model.id,
      tools: offeredTools(ctx.settings),
      system: systemBlocks(base, summary, plan, ctx.canvasText ?? ""),
      messages: markMessages(messages, plan),
      maxTokens: ctx.capacity.reserved,
    },
    breakpoints: breakpointCount(plan),
  };
}
