// What an export from elsewhere becomes before it is stored: conversations of messages in the
// order Threadkeeper's append-only log keeps them, with every branch the source kept (as
// versions: an edit names the first turn it replaces), original times, titles and models.
// Pure: the parsers (chatgpt.ts, claude.ts, claude-code.ts) read one conversation's JSON each.
import type { SessionExportJson } from "@/lib/contract/exchange";
import type { ImportFormat } from "@/lib/contract/imports";
import type { ContentBlock, Role } from "@/lib/context/types";

export type { ImportFormat };

export interface ImportedMessage {
  role: Role;
  content: ContentBlock[];
  /** When it was said, as the source recorded it (ISO 8601), or null. */
  saidAt: string | null;
  /** The model that wrote a reply, when the source says. */
  model: string | null;
  /** A new version: the first turn it replaces (lib/context/retries.ts). */
  supersedesTurn?: number;
  /** A regenerated reply: the turn's replies before it are earlier versions (Threadkeeper's own export). */
  restartsTurn?: boolean;
  /** The time history search dates it by, when the source kept it apart from `saidAt` (Threadkeeper's export). */
  searchAt?: string | null;
  /** Its token count as the source counted it (Threadkeeper's export); else counted here. */
  tokenCount?: number;
  /** The source's id of the message, for the report. */
  sourceId?: string;
}

/** A compaction the source made: its summary stands in for the turns up to `throughTurn`. */
export interface ImportedCompaction {
  throughTurn: number;
  summary: string;
  saidAt: string | null;
  /** Who asked for it, when the source says (Claude Code's compactMetadata). */
  trigger?: "manual" | "auto";
  /** The context's size before it, when the source says. */
  preTokens?: number;
}

/**
 * Threadkeeper's own export only: what it restores beyond the messages (compactions, window,
 * checkpoints, canvas, the session's flags), with the old seq of each imported message in order.
 */
export type SessionRestore = Omit<SessionExportJson, "messages" | "format" | "version" | "exported_at" | "system_prompt"> & {
  seqs: number[];
  protectedSeqs: number[];
  interruptedSeqs: number[];
};

export interface ImportedConversation {
  format: ImportFormat;
  /** The source's id: re-importing the same conversation adds nothing. */
  sourceId: string;
  title: string | null;
  model: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /**
   * The project it belongs to, by name (Threadkeeper's export; a Claude Code session's working
   * folder), and when that began, if the source says, for a project the import has to make.
   */
  project?: { name: string; createdAt: string | null };
  /** The session's own system prompt (Threadkeeper's export); else the importing user's default. */
  systemPrompt?: string;
  messages: ImportedMessage[];
  compactions: ImportedCompaction[];
  restore?: SessionRestore;
}

/** The longest source id kept (sessions.import_source_id's check); no export's ids come near it. */
export const MAX_SOURCE_ID_CHARS = 300;

/** One conversation that cannot be imported, and why: reported, the rest go on. */
export class ConversationError extends Error {
  constructor(
    readonly sourceId: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** A field of unknown JSON, read without trusting its shape. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
export const arr = (v: unknown): Json[] => (Array.isArray(v) ? v : []);

/** An epoch in seconds (ChatGPT) or an ISO string, as ISO 8601; null when neither. */
export function isoTime(v: unknown): string | null {
  if (typeof v === "number") return isoMs(v * 1000);
  if (typeof v === "string" && v !== "") return isoMs(Date.parse(v));
  return null;
}

/** The latest time an export's is taken for; past it (or before 1970) it is a mistake, and past what PostgreSQL stores. */
const LATEST_MS = Date.UTC(9999, 11, 31);
const isoMs = (ms: number): string | null => (Number.isFinite(ms) && ms > 0 && ms <= LATEST_MS ? new Date(ms).toISOString() : null);
