import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

const metrics = {
  requests: count(),
  input_tokens: count(),
  output_tokens: count(),
  cache_creation_input_tokens: count(),
  cache_read_input_tokens: count(),
  cost_usd: z.number(),
  cost_by_kind: described(
    z.object({ input: z.number(), output: z.number(), cache_write: z.number(), cache_read: z.number() }).nullable(),
    "cost_usd split by token kind at each model's list prices; null for rows without a model to price (by session).",
  ),
  compactions: count(),
  cache_hit_rate: described(z.number().nullable(), "cache_read / (input + cache write + cache read); null without input."),
  calibration_calls: count(),
  calibration_error_percent: described(z.number().nullable(), "Mean |estimate − measured| / measured, in percent."),
  calibration_bias_percent: described(z.number().nullable(), "Mean (estimate − measured) / measured, in percent."),
};

export const usageMetrics = named("UsageMetrics", z.object(metrics), "What every usage row and the totals carry.");

export const dayRow = named("UsageDayRow", z.object({ day: described(z.string(), "UTC day, YYYY-MM-DD."), ...metrics }));

export const sessionRow = named(
  "UsageSessionRow",
  z.object({
    session_id: described(uuidString().nullable(), "null: calls made outside any session."),
    title: described(z.string().nullable(), "null for a deleted session (its calls stay) or calls outside a session."),
    deleted: z.boolean(),
    ...metrics,
  }),
);

export const modelRow = named("UsageModelRow", z.object({ model: z.string().nullable(), ...metrics }));

const compactionMarkFields = {
  id: uuidString(),
  created_at: timestamp(),
  at_turn: count(),
  trigger: z.enum(["manual", "auto", "error_recovery"]),
  method: z.enum(["llm", "extractive", "sliding"]),
  status: z.enum(["applied", "reverted", "superseded"]),
  from_turn: count(),
  through_turn: count(),
  pre_tokens: count(),
  post_tokens: count(),
  reduction_percent: z.number(),
  retention_rate: z.number(),
};

export const compactionMark = named("UsageCompactionMark", z.object(compactionMarkFields));

export const turnRow = named(
  "UsageTurnRow",
  z.object({
    turn_seq: count().nullable(),
    context_tokens: described(count().nullable(), "What the API measured the turn's last chat call at."),
    estimated_input_tokens: count().nullable(),
    capacity_tokens: count().nullable(),
    fill_percent: z.number().nullable(),
    window_start_turn: count().nullable(),
    estimate_error_percent: z.number().nullable(),
    slide: described(z.boolean(), "The window's start moved forward since the previous turn without a compaction."),
    slid_turns: count(),
    compaction_events: z.array(compactionMark),
    ...metrics,
  }),
);

export const usageReport = named(
  "UsageReport",
  z.object({
    group_by: z.enum(["day", "session", "model", "turn"]),
    from: described(timestamp().nullable(), "The half-open range [from, to) covered; null from: the session's whole history (turn view)."),
    to: described(timestamp().nullable(), "null: up to now."),
    session_id: uuidString().nullable(),
    rows: z.array(z.union([dayRow, sessionRow, modelRow, turnRow])),
    totals: usageMetrics,
    total_rows: count(),
    truncated: z.boolean(),
  }),
  "Rows grouped as asked; with Accept: text/csv the same rows as CSV.",
);

export const compactionPoint = named(
  "UsageCompactionPoint",
  z.object({ ...compactionMarkFields, session_id: uuidString(), title: z.string(), model: z.string().nullable(), cost_usd: z.number() }),
);

export const usageSummary = named(
  "UsageSummary",
  z.object({
    from: timestamp(),
    to: timestamp().nullable(),
    has_usage: z.boolean(),
    offline: described(z.boolean(), "No API key on this server: the offline responder answers, and its replies are not billed."),
    totals: usageMetrics,
    days: z.array(dayRow),
    top_sessions: z.array(sessionRow),
    compactions: z.array(compactionPoint),
  }),
  "What the dashboard shows for a range.",
);

export const GROUP_BYS = usageReport.shape.group_by.options;
export type GroupBy = (typeof GROUP_BYS)[number];
export type UsageMetrics = z.infer<typeof usageMetrics>;
export type DayRowJson = z.infer<typeof dayRow>;
export type SessionRowJson = z.infer<typeof sessionRow>;
export type ModelRowJson = z.infer<typeof modelRow>;
export type CompactionMarkJson = z.infer<typeof compactionMark>;
export type TurnRowJson = z.infer<typeof turnRow>;
export type UsageRowJson = DayRowJson | SessionRowJson | ModelRowJson | TurnRowJson;
/** Rows of one grouping; `R` narrows them for a caller that asked for one. */
export type UsageReportJson<R extends UsageRowJson = UsageRowJson> = Omit<z.infer<typeof usageReport>, "rows"> & { rows: R[] };
export type CompactionPointJson = z.infer<typeof compactionPoint>;
export type UsageSummaryJson = z.infer<typeof usageSummary>;
