// The engine's view of a message. Content blocks are the contract's (lib/contract/messages.ts):
// stored as jsonb and sent as they are, SDK-independent so the engine stays pure.
import type { ContentBlock, MessageStatus, Role } from "@/lib/contract/messages";

export type { ContentBlock, ImageBlock, MessageStatus, Role, TextBlock, ToolResultBlock, ToolUseBlock } from "@/lib/contract/messages";

/** A stored message as the engine sees it. */
export interface EngineMessage {
  seq: number;
  turnSeq: number;
  role: Role;
  content: ContentBlock[];
  tokenCount: number;
  protected: boolean;
  status: MessageStatus;
  /** A user message that edits (and replaces) this earlier turn. */
  supersedesTurn?: number | null;
  /** A regenerated reply: the turn's replies before it are replaced. */
  restartsTurn?: boolean;
  /** When it was stored (ISO): the date its "yesterday" and "last week" are relative to. */
  createdAt?: string;
}

/** A message as sent to the Messages API. */
export interface ApiMessage {
  role: Role;
  content: ContentBlock[];
}
