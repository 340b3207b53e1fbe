import type { CanvasStreamEvent } from "@/lib/canvas/wire";
import type { CacheBreak } from "@/lib/context/prompt-cache";
// JSON shapes of the REST API (snake_case, PRD field names). Shared by route handlers and the UI.
import type { ContentBlock, MessageStatus, Role } from "@/lib/context/types";

export interface ContextSettings {
  /** Fraction of capacity at which automatic compaction runs (0.5–0.95). */
  compaction_threshold: number;
  /** Fraction of the window reserved for the reply (0.05–0.5), capped at the model's max output. */
  output_reservation: number;
  /** Fraction of the window kept free to absorb estimation error (0–0.3). */
  safety_buffer: number;
  /** Model id from the registry. */
  model: string;
  /** Compact automatically when usage reaches the threshold. */
  auto_compact: boolean;
  /** Fraction of capacity a compaction aims for (0.1–0.7), well below the threshold so it does not run again soon. */
  compaction_target: number;
  /** Model that writes summaries. */
  summary_model: string;
  /** A preset name (general, debugging, code_review, architecture) or a saved template's id. */
  compaction_template: string;
  /** Fraction of capacity that memories of earlier sessions may take in a new session (0–0.3). */
  memory_budget: number;
  /** Days until an unpinned memory expires. */
  memory_ttl_days: number;
  /** Offer Claude the recall tool, which searches condensed turns and other sessions. */
  recall_tool: boolean;
  /** Offer Claude the canvas tools, which put cards, charts, tables … on the canvas beside the chat. */
  canvas_tools: boolean;
  /** Fraction of capacity the canvas's system-prompt section may take (0.01–0.3); over it, older elements are listed briefly. */
  canvas_budget: number;
}

export interface SessionJson {
  id: string;
  title: string;
  model: string;
  settings: Partial<ContextSettings>;
  created_at: string;
  updated_at: string;
  last_message_at: string | null;
  message_count: number;
  project_id: string | null;
  /** Set on a session forked from a checkpoint: where it came from. */
  parent_session_id: string | null;
  forked_from_checkpoint_id: string | null;
  /** default | heuristic | llm | user: how the title was made. */
  title_source: string;
  /** Pinned to the top of the session list. */
  pinned: boolean;
  /** Archived into a memory; listed apart until unarchived. */
  archived: boolean;
}

/** GET /api/session/{id}: a session with its checkpoints (newest first) and its fork relations. */
export interface SessionDetailJson {
  session: SessionJson;
  checkpoints: CheckpointJson[];
  parent: { id: string; title: string } | null;
  forked_from: { id: string; label: string | null; created_at: string } | null;
  forks: { id: string; title: string; forked_from_checkpoint_id: string | null }[];
}

/** A row of the session picker. */
export interface SessionSummaryJson extends SessionJson {
  project_name: string | null;
  last_message_preview: string | null;
  checkpoint_count: number;
  current_tokens: number;
}

export interface ProjectJson {
  id: string;
  name: string;
  created_at: string;
  session_count: number;
}

export type CheckpointTrigger = "auto" | "manual" | "pre_compaction";

export interface CheckpointJson {
  id: string;
  session_id: string;
  label: string | null;
  /** The label, or for an automatic checkpoint what its turn was about ("Fixed: the upload test"). */
  name: string;
  trigger: CheckpointTrigger;
  /** code, file, decision, error_fix, task_complete, periodic, pre_compaction */
  auto_tags: string[];
  /** The checkpoint covers the session's messages up to this seq. */
  through_seq: number;
  through_turn: number;
  token_count: number;
  /** The last messages at the checkpoint, for a hover preview. */
  preview: { role: Role; text: string }[];
  /** The summary (compaction) active at the checkpoint. */
  summary_id: string | null;
  created_at: string;
}

/** POST /api/session/recover: a reply cut off by a crash, and where to resume from. */
export interface RecoveryJson {
  needed: boolean;
  session: SessionSummaryJson | null;
  interrupted_message: MessageJson | null;
  checkpoint: CheckpointJson | null;
}

export interface MessageJson {
  id: string;
  session_id: string;
  seq: number;
  turn_seq: number;
  role: Role;
  content: ContentBlock[];
  text: string;
  token_count: number;
  protected: boolean;
  status: MessageStatus;
  /** False when the message has slid out of Claude's view. */
  in_window: boolean;
  /** On a user message: the earlier turn it edits and replaces (that turn stays, as an earlier version). */
  supersedes_turn: number | null;
  /** On an assistant message: a regenerated reply; the turn's replies before it are earlier versions. */
  restarts_turn: boolean;
  created_at: string;
}

export interface WindowJson {
  /** Turns with turn_seq >= cutoff_turn_seq are in the window, plus the pinned turns. */
  cutoff_turn_seq: number;
  /** Turns before the cutoff that stay in the window: the first turn and protected turns. */
  pinned_turn_seqs: number[];
}

export interface MessagesPageJson {
  messages: MessageJson[];
  has_more: boolean;
  window: WindowJson;
}

export type ContextStatusLevel = "normal" | "warning" | "critical";

export interface ContextBreakdown {
  system: number;
  tools: number;
  summary: number;
  memory: number;
  canvas: number;
  messages: number;
}

/** The PRD's ContextWindowStatus plus the capacity model and breakdown. */
export interface ContextStatusJson {
  session_id: string;
  /** Tokens of the next request's input (what is used). */
  current_tokens: number;
  /** The model's context window W. */
  max_tokens: number;
  /** R: reserved for the reply. */
  reserved_tokens: number;
  /** S: safety buffer. */
  safety_tokens: number;
  /** C = W - R - S: the most input ever sent. */
  capacity_tokens: number;
  /** C - used, never below 0. */
  available_tokens: number;
  /** used / C × 100. */
  usage_percent: number;
  status: ContextStatusLevel;
  /** Compaction threshold as a percent of capacity. */
  threshold_percent: number;
  estimated_messages_remaining: number;
  last_updated: string;
  model: string;
  breakdown: ContextBreakdown;
  /** True when current_tokens is the API's own count with nothing estimated on top. */
  measured: boolean;
  /** Part of current_tokens that the API measured (last request's input). */
  measured_tokens: number;
  /** Part of current_tokens estimated locally (calibrated) since the last measurement. */
  estimated_tokens: number;
  calibration_factor: number;
  /** What this session's API calls (replies, summaries, titles) have cost so far, in USD. */
  cost_usd: number;
  /** Share (0-1) of the session's billed input tokens that were read from the prompt cache. */
  cache_read_share: number;
  /** Billed input + output tokens of all the user's calls this UTC day (every session). */
  tokens_today: number;
  /** THREADKEEPER_DAILY_TOKEN_BUDGET, or null when there is none. */
  daily_token_budget: number | null;
  /** Tokens kept out of the request by sending old tool results as placeholders (context editing). */
  cleared_tokens: number;
}

export interface SettingsJson {
  scope: "user" | "session";
  session_id: string | null;
  /** What is stored at this scope (a session stores only its overrides). */
  settings: Partial<ContextSettings>;
  /** User defaults merged with the session override. */
  effective: ContextSettings;
}

export interface ApiErrorJson {
  error: { code: string; message: string; details?: unknown };
}

/** Server-Sent Events of POST /api/session/{id}/messages, in order. */
export type SendEvent =
  | { event: "user_message"; data: MessageJson }
  | { event: "notice"; data: { kind: string; message: string } }
  | { event: "delta"; data: { text: string } }
  | { event: "assistant_message"; data: MessageJson }
  | { event: "status"; data: ContextStatusJson }
  /** Memories of earlier sessions loaded into this session's first request. */
  | { event: "memories"; data: { loaded: LoadedMemoryJson[]; tokens: number } }
  /** An automatic checkpoint was saved after the turn. */
  | { event: "checkpoint"; data: CheckpointJson }
  /** A compaction (automatic after the turn, or error recovery) was applied. */
  | { event: "compaction"; data: CompactionJson }
  /** Claude's canvas tool calls of one round, applied and saved with their tool_result message. */
  | { event: "canvas"; data: CanvasStreamEvent }
  | { event: "error"; data: ApiErrorJson }
  | { event: "done"; data: Record<string, never> };

/** JSON answer of POST /api/session/{id}/messages with Accept: application/json. */
export interface SendResultJson {
  user_message: MessageJson;
  assistant_message: MessageJson | null;
  status: ContextStatusJson;
  notices: { kind: string; message: string }[];
  error?: ApiErrorJson["error"];
}

export type CompactionTrigger = "manual" | "auto" | "error_recovery";
/** llm: Claude wrote the summary; extractive: the deterministic fallback; sliding: turns were dropped instead. */
export type CompactionMethod = "llm" | "extractive" | "sliding";
export type CompactionStatus = "applied" | "reverted" | "superseded";

export interface PreservedItemJson {
  kind: string;
  text: string;
}

/** The PRD's CompactionResult plus what the divider shows. */
export interface CompactionJson {
  id: string;
  session_id: string;
  trigger: CompactionTrigger;
  method: CompactionMethod;
  status: CompactionStatus;
  pre_tokens: number;
  post_tokens: number;
  reduction_percent: number;
  messages_condensed: number;
  /** Turns condensed: from_turn..through_turn (protected ones among them stay verbatim). */
  from_turn: number;
  through_turn: number;
  /** The divider sits after the message with this seq. */
  at_seq: number;
  summary_preview: string;
  /** The whole summary (sections + "Preserved details"); null when method is sliding. */
  summary: string | null;
  summary_tokens: number;
  /** Must-keep items found in the condensed turns, how many the summary holds, and what had to be left out. */
  items_total: number;
  retention_rate: number;
  preserved_items: PreservedItemJson[];
  omitted_items: PreservedItemJson[];
  model: string | null;
  template: string;
  instructions: string | null;
  duration_ms: number;
  cost_usd: number;
  /** Why a fallback ran, when one did. */
  fallback_reason: string | null;
  /** What the compaction did to the prompt cache; null for compactions from before it was recorded. */
  cache: CacheBreak | null;
  can_undo: boolean;
  created_at: string;
}

export interface TemplateJson {
  /** A preset's name or a saved template's uuid. */
  id: string;
  name: string;
  body: string;
  preset: boolean;
}

export type MemorySource = "compaction" | "archive" | "manual";
/** A session's summary, or one atomic fact taken from its turns. */
export type MemoryKind = "summary" | "fact";

/** Where a fact memory came from and how long it held. */
export interface MemoryFactJson {
  /** Who it is about: "user", "user's sister", a lower-cased name. */
  subject: string;
  /** What it sets ("lives_in", "likes:sushi"); null when no pattern named one. */
  attribute: string | null;
  value: string | null;
  /** The session's messages it was said in. */
  from_seq: number;
  through_seq: number;
  /** When it was said. */
  valid_from: string;
  /** When a newer fact replaced it (null while current). */
  valid_until: string | null;
  superseded_by: string | null;
  /** How many times it was said (repeats update the stored fact instead of adding one). */
  seen_count: number;
  last_seen_at: string;
}

export interface MemoryJson {
  id: string;
  project_id: string | null;
  session_id: string | null;
  source: MemorySource;
  summary: string;
  key_decisions: string[];
  code_references: string[];
  tags: string[];
  pinned: boolean;
  embedding_model: string;
  created_at: string;
  expires_at: string | null;
  kind: MemoryKind;
  /** Set for facts (the summary holds the fact's sentence); null for summaries. */
  fact: MemoryFactJson | null;
}

export interface MemoryHitJson extends MemoryJson {
  /** Combined relevance: fused similarity and keyword rank, recency, pinning. */
  relevance: number;
  /** Rank in the vector and the keyword lists (null when absent from one). */
  vector_rank: number | null;
  text_rank: number | null;
}

/** GET /api/search: one message anywhere in the user's history. */
export interface HistoryHitJson {
  session_id: string;
  session_title: string | null;
  message_id: string;
  seq: number;
  turn_seq: number | null;
  role: "user" | "assistant";
  /** The matched excerpt (at most ~300 characters), secrets redacted. */
  snippet: string;
  /** The message's text, secrets redacted, cut to about 2,000 characters around the match. */
  text: string;
  /** In (0, 1]: fused rank of keyword and similarity, halved for replaced versions. */
  score: number;
  created_at: string;
}

export interface LoadedMemoryJson {
  memory: MemoryJson;
  tokens: number;
  score: number;
  dropped: boolean;
}

export type ApiKeyScope = "read" | "write" | "admin";

/** An API key as listed: never its secret. */
export interface ApiKeyJson {
  id: string;
  name: string;
  /** `tk_live_` and the first characters of the key, to tell keys apart. */
  prefix: string;
  scopes: ApiKeyScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  status: "active" | "expired" | "revoked";
}

/** POST /api/keys: the only answer that ever carries the secret. */
export interface CreatedApiKeyJson {
  key: ApiKeyJson;
  secret: string;
}
