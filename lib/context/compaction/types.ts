// Shapes of the pure compaction engine. Everything here is I/O-free; token counting is
// injected so the engine stays independent of the tokenizer.
import type { Turn } from "@/lib/context/turns";

export type CountTokens = (text: string) => number;

/**
 * Ranked most important first: when the budget cannot hold every item, earlier kinds win.
 * Development artifacts and the facts of an ordinary conversation (people, places, dates,
 * amounts, and the user's plans, tastes and events) share one ranking: statements first,
 * then references, small atomic facts before code blocks, identifiers last.
 */
export const MUST_KEEP_KINDS = [
  "decision",
  "error",
  "pending_task",
  "commitment",
  "preference",
  "event",
  "file_path",
  "config",
  "url",
  "date_time",
  "person",
  "place",
  "quantity",
  "code_block",
  "identifier",
] as const;
export type MustKeepKind = (typeof MUST_KEEP_KINDS)[number];

export interface MustKeepItem {
  kind: MustKeepKind;
  /** The exact text that must appear in the summary (verbatim check, whitespace-normalized). */
  text: string;
}

export interface VerifiedSummary {
  /** The summary with a "### Preserved details" section appended when items were missing. */
  text: string;
  itemsTotal: number;
  /** Items the summarizer's own text already contained. */
  retainedByModel: number;
  /** Missing items appended verbatim under "Preserved details". */
  appended: MustKeepItem[];
  /** Missing items that did not fit the details budget (lowest ranked first to go). */
  omitted: MustKeepItem[];
  /** Items present in the final text / items total (1 when there are none). */
  retentionRate: number;
}

export interface CompactionPlan {
  /** Unprotected turns to condense, ascending. */
  condense: Turn[];
  /** Protected turns among the condensed range: they stay verbatim (pinned). */
  pinned: Turn[];
  /** Latest turns kept verbatim, ascending (at least the last turn). */
  keep: Turn[];
  /** The summary covers every turn up to and including this one (except pinned ones). */
  throughTurn: number;
  condensedTokens: number;
  keptTokens: number;
}

/** A turn flattened to text for the summarizer and the must-keep extractor. */
export interface TranscriptTurn {
  turnSeq: number;
  /**
   * `seq` is the stored message's and `at` when it was stored (ISO), both absent in
   * transcripts built by hand; `toolResult` marks a user message that carries tool output.
   */
  messages: { role: "user" | "assistant"; text: string; seq?: number; at?: string | null; toolResult?: boolean }[];
}
