// The chat completion a turn adds up to, in OpenAI's terms: the text of every reply of the turn
// (Threadkeeper's own tool rounds included, their calls left out), the calls of the caller's
// functions, the finish reason and what Claude billed. Claude's thinking is never shown: Chat
// Completions has no place for it (Anthropic's layer does not return it either).
import "server-only";
import { randomBytes } from "node:crypto";
import type { FinishReason, OpenAIChatCompletion, OpenAIToolCall, OpenAIUsage } from "@/lib/contract/openai";
import type { KeyBlock } from "@/lib/context/client-history";
import type { LlmReply, LlmUsage } from "@/lib/llm/client";
import { TurnTally } from "../turn-answer";

/** Between the texts of two replies of one turn (before and after a recall, say), as one message reads. */
export const REPLY_SEPARATOR = "\n\n";

const FINISH: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

export function usageJson(u: LlmUsage): OpenAIUsage {
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  return { prompt_tokens: prompt, completion_tokens: u.output_tokens, total_tokens: prompt + u.output_tokens, prompt_tokens_details: { cached_tokens: u.cache_read_input_tokens } };
}

export class Completion extends TurnTally {
  readonly id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  readonly created = Math.floor(Date.now() / 1000);
  /** Each reply's text, in order. */
  private readonly texts: string[] = [];
  readonly toolCalls: OpenAIToolCall[] = [];
  private stopReason: string | null = null;

  constructor(
    readonly model: string,
    private readonly callerTools: ReadonlySet<string>,
  ) {
    super();
  }

  /** Whether a tool is the caller's: Threadkeeper's own run inside the request and are never shown. */
  isCallerTool(name: unknown): boolean {
    return typeof name === "string" && this.callerTools.has(name);
  }

  add(reply: LlmReply): void {
    this.addUsage(reply);
    this.stopReason = reply.stopReason;
    this.texts.push(reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(""));
    for (const b of reply.content) {
      if (b.type !== "tool_use" || !this.isCallerTool(b.name)) continue;
      this.toolCalls.push({ id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
    }
  }

  content(): string {
    return this.texts.filter((t) => t !== "").join(REPLY_SEPARATOR);
  }

  finishReason(): FinishReason {
    return (this.stopReason && FINISH[this.stopReason]) || "stop";
  }

  /** The reply as the client will send it back: its text, then its function calls. */
  view(): KeyBlock[] {
    const text = this.content();
    return [...(text === "" ? [] : [{ type: "text", text }]), ...this.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.function.name }))];
  }

  json(): OpenAIChatCompletion {
    const text = this.content();
    const calls = this.toolCalls.length > 0 ? { tool_calls: this.toolCalls } : {};
    return {
      id: this.id,
      object: "chat.completion",
      created: this.created,
      model: this.model,
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          // OpenAI's content is null beside function calls when nothing was said.
          message: { role: "assistant", content: text === "" && this.toolCalls.length > 0 ? null : text, refusal: null, ...calls },
          logprobs: null,
          finish_reason: this.finishReason(),
        },
      ],
      usage: usageJson(this.finalUsage()),
    };
  }
}
