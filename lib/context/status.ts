// Context status: how full the next request is, and how much of that figure the API
// actually measured versus what we estimated on top of the last measurement.
import type { ModelInfo } from "@/lib/models";
import type { ContextBreakdown, ContextSettings, ContextStatusJson } from "@/lib/contract";
import { calibrate } from "@/lib/tokens/calibration";
import { computeCapacity, statusLevel } from "@/lib/context/capacity";

export interface MeasuredInput {
  /** Input tokens the API reported for the last request (cache tokens included). */
  tokens: number;
  /** Our raw estimate of the same content at the time of that request. */
  rawAtMeasure: number;
  at: Date;
}

export interface StatusInput {
  sessionId: string;
  model: ModelInfo;
  settings: ContextSettings;
  /** Raw (uncalibrated) estimate per category of what the next request would send. */
  breakdownRaw: ContextBreakdown;
  calibration: number;
  measured: MeasuredInput | null;
  /** Raw estimate of an average turn; calibrated here so it is in the same unit as `used`. */
  avgTurnTokens: number;
  /** What the session's API calls cost so far, for the bar's tooltip. */
  spend: Spend;
  /** The user's billed tokens this UTC day, across sessions, and the daily budget (null: none). */
  today: { tokens: number; budget: number | null };
  /** Raw tokens that clearing old tool results saves in the window (already left out of `breakdownRaw`). */
  clearedRaw?: number;
  now: Date;
}

export interface Spend {
  costUsd: number;
  billedInputTokens: number;
  cacheReadTokens: number;
}

const CATEGORIES_BUT_MESSAGES = ["system", "tools", "summary", "memory", "canvas"] as const;

function sumBreakdown(b: ContextBreakdown): number {
  return b.system + b.tools + b.summary + b.memory + b.canvas + b.messages;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Spreads `used` over the categories in proportion to their raw estimates (the same
 * proportions as calibrated estimates, since one factor applies to all). Other categories
 * round down and messages take the remainder, so the parts always sum to `used` and none
 * goes negative.
 */
function scaleBreakdown(raw: ContextBreakdown, rawTotal: number, used: number): ContextBreakdown {
  const out: ContextBreakdown = { system: 0, tools: 0, summary: 0, memory: 0, canvas: 0, messages: 0, files: 0 };
  if (rawTotal <= 0) return { ...out, messages: used };
  let assigned = 0;
  for (const key of CATEGORIES_BUT_MESSAGES) {
    out[key] = Math.floor((raw[key] * used) / rawTotal);
    assigned += out[key];
  }
  out.messages = used - assigned;
  // Files are a part of the messages, scaled alike.
  out.files = Math.min(out.messages, Math.floor((raw.files * used) / rawTotal));
  return out;
}

/**
 * The one token figure: what the next request's input comes to. Every place that shows or
 * decides on a session's size (bar, picker, checkpoints, compaction trigger, API) goes
 * through here. After a measurement only the change since is estimated; it is negative
 * after a slide or compaction removed content, hence the floor at 0.
 */
export function currentTokens(rawNow: number, calibration: number, measured: Pick<MeasuredInput, "tokens" | "rawAtMeasure"> | null): number {
  if (!measured) return calibrate(rawNow, calibration);
  return Math.max(0, measured.tokens + Math.round((rawNow - measured.rawAtMeasure) * calibration));
}

/** A session row's counters: all the token figures need, never the messages themselves. */
export interface SessionCounters {
  system_tokens: number;
  memory_tokens: number;
  summary_tokens: number;
  tail_tokens: number;
  pinned_tokens: number;
  /** Raw tokens of the canvas's system-prompt section at the session's canvas budget (0: empty canvas). */
  canvas_tokens: number;
  /** Raw tokens of the attached files in the window (part of tail and pinned); absent: not read. */
  files_tokens?: number;
  measured_tokens: number | null;
  measured_raw_tokens: number | null;
  measured_at: Date | null;
}

/**
 * Raw estimate per category of what the session's next request sends. `tools`: the offered
 * tool definitions' raw tokens (toolsRawTokens of the session's settings).
 */
export function breakdownOf(s: SessionCounters, tools: number): ContextBreakdown {
  return {
    system: s.system_tokens,
    tools,
    summary: s.summary_tokens,
    memory: s.memory_tokens,
    canvas: s.canvas_tokens,
    messages: s.tail_tokens + s.pinned_tokens,
    files: Math.min(s.files_tokens ?? 0, s.tail_tokens + s.pinned_tokens),
  };
}

export function measuredOf(s: SessionCounters): MeasuredInput | null {
  return s.measured_tokens !== null && s.measured_raw_tokens !== null && s.measured_at
    ? { tokens: s.measured_tokens, rawAtMeasure: s.measured_raw_tokens, at: s.measured_at }
    : null;
}

/** `currentTokens` of a session from its row: what the picker shows, equal to the status's figure. */
export function sessionTokens(s: SessionCounters, calibration: number, tools: number): number {
  return currentTokens(sumBreakdown(breakdownOf(s, tools)), calibration, measuredOf(s));
}

export function computeStatus(input: StatusInput): ContextStatusJson {
  const { model, settings, breakdownRaw, calibration, measured, now } = input;
  const cap = computeCapacity(model, settings);
  const rawNow = sumBreakdown(breakdownRaw);
  const used = currentTokens(rawNow, calibration, measured);
  const measuredTokens = measured ? Math.min(measured.tokens, used) : 0;
  const isMeasured = measured !== null && rawNow === measured.rawAtMeasure;

  const capacity = cap.capacity;
  const usagePercent = round1((used / Math.max(capacity, 1)) * 100);
  const available = Math.max(0, capacity - used);
  // Counts turns of average size: a rough "how many more exchanges" figure, not a promise.
  const avgTurn = Math.max(calibrate(input.avgTurnTokens, calibration), 1);

  return {
    session_id: input.sessionId,
    current_tokens: used,
    max_tokens: cap.window,
    reserved_tokens: cap.reserved,
    safety_tokens: cap.safety,
    capacity_tokens: capacity,
    available_tokens: available,
    usage_percent: usagePercent,
    status: statusLevel(usagePercent),
    threshold_percent: round1(settings.compaction_threshold * 100),
    estimated_messages_remaining: Math.max(0, Math.floor(available / avgTurn)),
    last_updated: (measured?.at ?? now).toISOString(),
    model: model.id,
    breakdown: scaleBreakdown(breakdownRaw, rawNow, used),
    measured: isMeasured,
    measured_tokens: measuredTokens,
    estimated_tokens: used - measuredTokens,
    calibration_factor: calibration,
    cost_usd: input.spend.costUsd,
    cache_read_share: input.spend.billedInputTokens > 0 ? input.spend.cacheReadTokens / input.spend.billedInputTokens : 0,
    tokens_today: input.today.tokens,
    daily_token_budget: input.today.budget,
    cleared_tokens: Math.round(calibrate(input.clearedRaw ?? 0, input.calibration)),
  };
}
