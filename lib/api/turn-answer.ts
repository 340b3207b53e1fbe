// What an answer to a drop-in turn gathers whatever API it speaks (the Messages API's, the
// OpenAI-compatible endpoint's): Claude's usage summed over the replies of the turn, the turn's
// status and failure, the headers that name the session, and the client's view recorded after
// the answer.
import "server-only";
import type { ContextStatusJson, SendEvent } from "@/lib/contract";
import { CONTEXT_CAPACITY_HEADER, CONTEXT_PERCENT_HEADER, CONTEXT_TOKENS_HEADER, HISTORY_HEADER, SESSION_FOUND_HEADER, SESSION_HEADER } from "@/lib/contract/anthropic";
import type { KeyBlock } from "@/lib/context/client-history";
import { AppError } from "@/lib/errors";
import type { LlmReply, LlmUsage } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import type { DropIn } from "@/lib/turn/drop-in";
import { turnFailureStatus } from "@/lib/turn/errors";

export class TurnTally {
  usage: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  measured = false;
  status: ContextStatusJson | null = null;
  error: AppError | null = null;
  /** The seq of the turn's last stored message. */
  lastSeq = 0;

  addUsage(reply: LlmReply): void {
    if (reply.usage) {
      this.measured = true;
      this.usage.input_tokens += reply.usage.input_tokens;
      this.usage.output_tokens += reply.usage.output_tokens;
      this.usage.cache_creation_input_tokens += reply.usage.cache_creation_input_tokens;
      this.usage.cache_read_input_tokens += reply.usage.cache_read_input_tokens;
    } else {
      // The offline responder measures nothing: our own estimate of what it wrote.
      this.usage.output_tokens += estimateMessageTokens("assistant", reply.content);
    }
  }

  /** Our events: the status after the turn, and a failure of Claude's. */
  note(e: SendEvent): void {
    if (e.event === "user_message" || e.event === "assistant_message") this.lastSeq = Math.max(this.lastSeq, e.data.seq);
    if (e.event === "status") this.status = e.data;
    else if (e.event === "error") {
      const { code, message, details } = e.data.error;
      const retryAfter = (details as { retry_after?: string } | undefined)?.retry_after;
      this.error = new AppError(turnFailureStatus(code), code, message, details, retryAfter ? { "retry-after": retryAfter } : undefined);
    }
  }

  /** What Claude billed; unmeasured (offline), the window's own count stands for the input. */
  finalUsage(): LlmUsage {
    if (this.measured || !this.status) return this.usage;
    return { ...this.usage, input_tokens: this.status.current_tokens };
  }
}

/**
 * Remembers what the client now holds of the conversation (`answered`: the reply as the client
 * will resend it), so its next resent history is recognised without reading the session; a
 * failure only costs that request a read.
 */
export async function recordView(turn: DropIn, tally: TurnTally, answered: readonly KeyBlock[]): Promise<void> {
  if (tally.error || answered.length === 0 || !turn.recordView || tally.lastSeq === 0) return;
  await turn.recordView(answered, tally.lastSeq).catch((e: unknown) => log.error("[threadkeeper] recording the client's view failed", e));
}

export function sessionHeaders(turn: DropIn): Record<string, string> {
  return { [SESSION_HEADER]: turn.sessionId, [SESSION_FOUND_HEADER]: turn.foundBy, [HISTORY_HEADER]: turn.history };
}

export function contextHeaders(status: ContextStatusJson | null): Record<string, string> {
  if (!status) return {};
  return {
    [CONTEXT_TOKENS_HEADER]: String(status.current_tokens),
    [CONTEXT_CAPACITY_HEADER]: String(status.capacity_tokens),
    [CONTEXT_PERCENT_HEADER]: status.usage_percent.toFixed(1),
  };
}
