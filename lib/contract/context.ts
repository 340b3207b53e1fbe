import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";
import { contextSettings, settingsOverrides } from "./settings";

export const contextBreakdown = named(
  "ContextBreakdown",
  z.object({
    system: count(),
    tools: count(),
    summary: count(),
    memory: count(),
    canvas: count(),
    messages: count(),
    files: described(count(), "Of `messages`: what the attached files in the window take."),
  }),
  "Tokens of the next request by category.",
);

export const contextStatus = named(
  "ContextWindowStatus",
  z.object({
    session_id: uuidString(),
    current_tokens: described(count(), "Tokens of the next request's input (what is used)."),
    max_tokens: described(count(), "The model's context window W."),
    reserved_tokens: described(count(), "R: reserved for the reply."),
    safety_tokens: described(count(), "S: safety buffer."),
    capacity_tokens: described(count(), "C = W - R - S: the most input ever sent."),
    available_tokens: described(count(), "C - used, never below 0."),
    usage_percent: described(z.number(), "used / C x 100."),
    status: z.enum(["normal", "warning", "critical"]),
    threshold_percent: described(z.number(), "Compaction threshold as a percent of capacity."),
    estimated_messages_remaining: count(),
    last_updated: timestamp(),
    model: z.string(),
    breakdown: contextBreakdown,
    measured: described(z.boolean(), "True when current_tokens is the API's own count with nothing estimated on top."),
    measured_tokens: described(count(), "Part of current_tokens that the API measured (last request's input)."),
    estimated_tokens: described(count(), "Part of current_tokens estimated locally (calibrated) since the last measurement."),
    calibration_factor: z.number(),
    cost_usd: described(z.number(), "What this session's API calls (replies, summaries, titles) have cost so far, in USD."),
    cache_read_share: described(z.number().min(0).max(1), "Share of the session's billed input tokens that were read from the prompt cache."),
    tokens_today: described(count(), "Billed input + output tokens of all your calls this UTC day (every session)."),
    daily_token_budget: described(count().nullable(), "THREADKEEPER_DAILY_TOKEN_BUDGET, or null when there is none."),
    cleared_tokens: described(count(), "Tokens kept out of the request by sending old tool results as placeholders (context editing)."),
  }),
  "The PRD's ContextWindowStatus plus the capacity model and breakdown.",
);

export const settingsView = named(
  "SettingsView",
  z.object({
    scope: z.enum(["user", "session"]),
    session_id: uuidString().nullable(),
    settings: settingsOverrides,
    effective: contextSettings,
  }),
  "`settings` is what is stored at this scope (a session stores only its overrides); `effective` is the user's defaults merged with the session's overrides.",
);

export const cacheBreak = named(
  "CacheBreak",
  z.object({
    warm: described(z.boolean(), "The cache held the current prefix, so changing it throws a paid-for entry away."),
    rewrite_tokens: described(count(), "Tokens the next request writes to the cache again."),
    break_cost_usd: described(z.number(), "Extra cost of the next request compared with not compacting (negative: it saves at once)."),
    saving_per_turn_usd: described(z.number(), "Saved on every later request, which reads the shorter prefix."),
    payback_turns: described(z.number().nonnegative(), "Requests until the savings repay the break; 0 when it pays at once."),
  }),
  "What a compaction did to the prompt cache.",
);

export const preservedItem = named("PreservedItem", z.object({ kind: z.string(), text: z.string() }));

export const compaction = named(
  "Compaction",
  z.object({
    id: uuidString(),
    session_id: uuidString(),
    trigger: z.enum(["manual", "auto", "error_recovery"]),
    method: described(
      z.enum(["llm", "extractive", "sliding"]),
      "llm: Claude wrote the summary; extractive: the deterministic fallback; sliding: turns were dropped instead.",
    ),
    status: z.enum(["applied", "reverted", "superseded"]),
    pre_tokens: count(),
    post_tokens: count(),
    reduction_percent: z.number(),
    messages_condensed: count(),
    from_turn: described(count(), "Turns condensed: from_turn..through_turn (protected ones among them stay verbatim)."),
    through_turn: count(),
    at_seq: described(count(), "The divider sits after the message with this seq."),
    summary_preview: z.string(),
    summary: described(z.string().nullable(), "The whole summary (sections + \"Preserved details\"); null when method is sliding."),
    summary_tokens: count(),
    items_total: described(count(), "Must-keep items found in the condensed turns."),
    retention_rate: z.number(),
    preserved_items: z.array(preservedItem),
    omitted_items: z.array(preservedItem),
    model: z.string().nullable(),
    template: z.string(),
    instructions: z.string().nullable(),
    duration_ms: z.number().nonnegative(),
    cost_usd: z.number(),
    fallback_reason: described(z.string().nullable(), "Why a fallback ran, when one did."),
    cache: described(cacheBreak.nullable(), "Null for compactions from before it was recorded."),
    can_undo: z.boolean(),
    created_at: timestamp(),
  }),
  "The PRD's CompactionResult plus what the divider shows.",
);

export const compactionOutcome = named(
  "CompactionOutcome",
  z.object({ compaction, status: contextStatus }),
  "The compaction and the context status after it.",
);

/** The summary prompts that ship with Threadkeeper (lib/context/compaction/templates.ts). */
export const PRESET_NAMES = ["general", "debugging", "code_review", "architecture"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const template = named(
  "Template",
  z.object({
    id: described(z.string(), "A preset's name or a saved template's uuid."),
    name: z.string(),
    body: z.string(),
    preset: z.boolean(),
  }),
  "A summary prompt: a preset or one you saved.",
);

export type ContextBreakdown = z.infer<typeof contextBreakdown>;
export type ContextStatusJson = z.infer<typeof contextStatus>;
export type ContextStatusLevel = ContextStatusJson["status"];
export type SettingsJson = z.infer<typeof settingsView>;
export type CacheBreak = z.infer<typeof cacheBreak>;
export type PreservedItemJson = z.infer<typeof preservedItem>;
export type CompactionJson = z.infer<typeof compaction>;
export type CompactionTrigger = CompactionJson["trigger"];
export type CompactionMethod = CompactionJson["method"];
export type CompactionStatus = CompactionJson["status"];
export type TemplateJson = z.infer<typeof template>;
export type CompactionOutcomeJson = z.infer<typeof compactionOutcome>;
