import "server-only";
import type { SendEvent } from "@/lib/contract";
import type { MessageRow } from "@/lib/db/messages";
import type { CallerParams, LlmReply } from "@/lib/llm/client";
import type { ToolDef } from "@/lib/tokens/tokenizer";

export type Emit = (e: SendEvent) => void;

/** One send in progress: who, where, the turn lease it holds and the user message it answers. */
export interface TurnHandle {
  userId: string;
  sessionId: string;
  leaseId: string;
  userMessage: MessageRow;
  /** Aborted when the user stops the reply (on this instance or, through the session row, another). */
  stop: AbortController;
  /** Set for a drop-in Messages API request: what its caller asked for beyond the message. */
  caller?: TurnCaller;
}

/**
 * A drop-in caller's part of a turn. Its tools are offered beside Threadkeeper's, and a call to
 * one ends the turn (the caller runs it and continues with a tool_result); `onReply` sees each
 * of Claude's replies as it is saved, for the caller's answer.
 */
export interface TurnCaller {
  tools: ToolDef[];
  params: CallerParams;
  /** The caller's `anthropic-beta` features. */
  betas: string[];
  maxTokens: number;
  onReply: (reply: LlmReply) => void;
}
