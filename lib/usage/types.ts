// JSON shapes of GET /api/usage and GET /api/usage/summary, shared by the routes and the dashboard.
import type { CompactionMethod, CompactionStatus, CompactionTrigger } from "@/lib/api/types";

export const GROUP_BYS = ["day", "session", "model", "turn"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

/** What every row and the totals carry. */
export interface UsageMetrics {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  /**
   * cost_usd split by token kind in the proportions of each model's list prices (a long-context
   * surcharge is spread over the kinds); null for rows without a model to price (by session).
   */
  cost_by_kind: { input: number; output: number; cache_write: number; cache_read: number } | null;
  /** Compactions that ran (reverted ones included: they were paid for). */
  compactions: number;
  /** cache_read / (input + cache write + cache read); null without input. */
  cache_hit_rate: number | null;
  /** Chat calls with an estimate, over which the calibration figures are taken. */
  calibration_calls: number;
  /** Mean of |estimate − measured| / measured, in percent; null without calibration calls. */
  calibration_error_percent: number | null;
  /** Mean of (estimate − measured) / measured, in percent: below 0 we under-estimated. */
  calibration_bias_percent: number | null;
}

export interface DayRowJson extends UsageMetrics {
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

export interface SessionRowJson extends UsageMetrics {
  /** null: calls made outside any session. */
  session_id: string | null;
  /** null when the session was deleted (its calls stay) or for calls outside a session. */
  title: string | null;
  deleted: boolean;
}

export interface ModelRowJson extends UsageMetrics {
  /** null only for compactions without a model (extractive, sliding). */
  model: string | null;
}

/** A compaction as the turn view marks it. */
export interface CompactionMarkJson {
  id: string;
  created_at: string;
  at_turn: number;
  trigger: CompactionTrigger;
  method: CompactionMethod;
  status: CompactionStatus;
  from_turn: number;
  through_turn: number;
  pre_tokens: number;
  post_tokens: number;
  reduction_percent: number;
  retention_rate: number;
}

export interface TurnRowJson extends UsageMetrics {
  /** null: calls of the session not tied to a turn. */
  turn_seq: number | null;
  /** The turn's last chat call: what the API measured it at (input + cache write + cache read). */
  context_tokens: number | null;
  estimated_input_tokens: number | null;
  capacity_tokens: number | null;
  /** context_tokens / capacity_tokens, in percent. */
  fill_percent: number | null;
  window_start_turn: number | null;
  /** (estimate − measured) / measured of that call, in percent. */
  estimate_error_percent: number | null;
  /** The window's start moved forward since the previous turn without a compaction in between. */
  slide: boolean;
  /** Turns that slid out of the window (0 without a slide). */
  slid_turns: number;
  compaction_events: CompactionMarkJson[];
}

export type UsageRowJson = DayRowJson | SessionRowJson | ModelRowJson | TurnRowJson;

export interface UsageReportJson<R extends UsageRowJson = UsageRowJson> {
  group_by: GroupBy;
  /**
   * The half-open range [from, to) the figures cover. `to` null: up to now. Only the turn view
   * has an open start (null `from`): the session's whole history.
   */
  from: string | null;
  to: string | null;
  session_id: string | null;
  rows: R[];
  /** Over every group, including those beyond `limit`. */
  totals: UsageMetrics;
  /** Groups before `limit` was applied. */
  total_rows: number;
  truncated: boolean;
}

/** A compaction on the dashboard's timeline. */
export interface CompactionPointJson extends CompactionMarkJson {
  session_id: string;
  title: string;
  model: string | null;
  cost_usd: number;
}

export interface UsageSummaryJson {
  from: string;
  /** null: up to now. */
  to: string | null;
  /** Whether this user has any recorded call or compaction at all (the empty state's question). */
  has_usage: boolean;
  /** No API key on this server: the offline responder answers, and its replies are not billed. */
  offline: boolean;
  totals: UsageMetrics;
  days: DayRowJson[];
  /** The most expensive sessions of the range, most expensive first. */
  top_sessions: SessionRowJson[];
  /** The latest compactions of the range (at most `compaction_limit`), oldest first. */
  compactions: CompactionPointJson[];
}
