// The Messages API request for a window: the system prompt as blocks (stable part, then the
// summary) and the messages, with prompt-cache breakpoints where they pay.
import "server-only";
import { toApiMessages } from "@/lib/context/api-messages";
import { breakpointCount, markMessages, planCacheBreakpoints, systemBlocks } from "@/lib/context/prompt-cache";
import { dropSuperseded } from "@/lib/context/retries";
import { sessionSystemText } from "@/lib/context/instructions";
import { OPEN_FILE_TOOL, offeredTools } from "@/lib/context/tools";
import { earlierFilesSection, fileIdsToSend, offersOpenFile } from "@/lib/context/files";
import type { EngineMessage } from "@/lib/context/types";
import { env } from "@/lib/env";
import type { CallerParams, LlmRequest } from "@/lib/llm/client";
import type { ContextSettings } from "@/lib/contract/settings";
import type { ModelInfo } from "@/lib/models";
import { dropFailingThinking, sendableThinking, THINKING_BINDING_BETA } from "@/lib/context/thinking";
import { calibrate } from "@/lib/tokens/calibration";
import type { TurnCaller } from "./turn-handle";
import type { ToolDef } from "@/lib/tokens/tokenizer";
import { stableRawTokens, summaryBlock, type SessionContext } from "@/lib/operations/session-context";
import { fileBodies } from "@/lib/operations/file-bodies";

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
 * The request with the bytes of the stored files its messages carry (read outside any
 * transaction); a request without files reads nothing.
 */
export async function withFileBodies<R extends Pick<LlmRequest, "messages" | "files">>(userId: string, request: R): Promise<R> {
  const ids = fileIdsToSend(request.messages);
  return ids.length === 0 ? request : { ...request, files: await fileBodies(userId, ids) };
}

/** A breakpoint after attached files unless THREADKEEPER_FILE_BREAKPOINTS=off (the files benchmark's baseline). */
function fileBreakpointsEnabled(): boolean {
  return env().THREADKEEPER_FILE_BREAKPOINTS !== "off";
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
  caller?: Pick<TurnCaller, "tools" | "params" | "maxTokens"> & Partial<Pick<TurnCaller, "betas">>,
): BuiltRequest {
  const s = ctx.session;
  const base = sessionSystemText(s.system_prompt, s.instructions) + (s.memory_text ?? "");
  const summary = s.summary_text ? summaryBlock(s.summary_text) : "";
  const tools = withCallerTools([...offeredTools(ctx.settings), ...(offersOpenFile(ctx.files, s.last_turn_seq) ? [OPEN_FILE_TOOL] : [])], caller?.tools ?? []);
  // The files whose turns have left the window, one line each, before the canvas (both change
  // more often than the summary, so neither is in its cached prefix).
  const inWindow = new Set(window.map((m) => m.turnSeq));
  const canvas = [earlierFilesSection(ctx.files, (t) => inWindow.has(t)), ctx.canvasText ?? ""].filter(Boolean).join("\n\n");
  // The prefix check ignores cache_control, so the digest reads the system prompt unmarked.
  const prefix = { system: systemBlocks(base, summary, NO_BREAKPOINTS, canvas), tools };
  const { messages, unverified } = sendableThinking(toApiMessages(dropSuperseded(window, current)), ctx.model.thinking, prefix);
  const factor = ctx.calibration.factor;
  const plan = promptCachingEnabled()
    ? planCacheBreakpoints({
        baseTokens: calibrate(stableRawTokens(ctx), factor),
        summaryTokens: calibrate(s.summary_tokens, factor),
        canvasTokens: calibrate(s.canvas_tokens, factor),
        messages,
        factor,
        minCacheTokens: ctx.model.minCacheTokens,
        fileMessages: fileBreakpointsEnabled() ? messages.flatMap((m, i) => (fileIdsToSend([m]).length > 0 ? [i] : [])) : [],
      })
    : NO_BREAKPOINTS;
  return {
    request: {
      model: ctx.model.id,
      tools,
      system: systemBlocks(base, summary, plan, canvas),
      messages: markMessages(messages, plan),
      maxTokens: caller?.maxTokens ?? ctx.capacity.reserved,
      ...thinkingFields(caller ? caller.params : thinkingParams(ctx.settings.thinking, ctx.model, ctx.capacity.reserved), caller?.betas ?? [], unverified),
    },
    breakpoints: breakpointCount(plan),
  };
}

const NO_BREAKPOINTS = { base: false, summary: false, messages: [] };

/** The least budget the API takes for budgeted thinking, which must also stay below max_tokens. */
const MIN_THINKING_BUDGET = 1024;

/**
 * The thinking an app session asks for: `auto` leaves the model to its default; `on` asks for
 * adaptive thinking where the model has it, else a budget of half the reply's reservation;
 * `off` disables it where the model allows that.
 */
export function thinkingParams(setting: ContextSettings["thinking"], model: ModelInfo, maxTokens: number): CallerParams {
  if (setting === "auto" || (setting === "off" && model.thinking.alwaysOn)) return {};
  if (setting === "off") return { thinking: { type: "disabled" } };
  if (model.thinking.adaptive) return { thinking: { type: "adaptive" } };
  const budget = Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2));
  return budget < maxTokens ? { thinking: { type: "enabled", budget_tokens: budget } } : {};
}

/** A request's parameters and betas; with thinking only the API can verify, it asks the API to drop what fails. */
function thinkingFields(params: CallerParams, betas: readonly string[], unverified: boolean): Pick<LlmRequest, "params" | "betas"> {
  if (!unverified || (params.thinking as { type?: unknown } | undefined)?.type === "disabled") return { params, betas };
  return { params: { ...params, thinking: dropFailingThinking(params.thinking) }, betas: [...new Set([...betas, THINKING_BINDING_BETA])] };
}

/**
 * Threadkeeper's tools, then a drop-in caller's (ours first: they never change, so the cached
 * prefix survives a caller whose tools do). A caller's tool of the same name wins.
 */
export function withCallerTools(own: readonly ToolDef[], callers: readonly ToolDef[]): ToolDef[] {
  const taken = new Set(callers.map((t) => t.name));
  return [...own.filter((t) => !taken.has(t.name)), ...callers];
}
