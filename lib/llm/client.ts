import "server-only";
import Anthropic from "@anthropic-ai/sdk";
import { env } from "@/lib/env";
import { countBilledTokens, timeClaudeCall } from "@/lib/metrics";
import { inSpan } from "@/lib/tracing";
import type { SystemBlock } from "@/lib/context/prompt-cache";
import type { ApiMessage, ContentBlock } from "@/lib/context/types";
import type { ToolDef } from "@/lib/tokens/tokenizer";

export interface LlmUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface LlmRequest {
  model: string;
  /** Blocks, so parts of the system prompt can carry cache breakpoints. */
  system: SystemBlock[];
  messages: ApiMessage[];
  maxTokens: number;
  /** Tools offered to Claude; they come first in the prompt, so the first cache breakpoint covers them. */
  tools?: ToolDef[];
  /** Sampling and tool-choice parameters a drop-in caller set; passed to the API as they are. */
  params?: CallerParams;
}

/** The Messages API parameters Threadkeeper passes through untouched for a drop-in caller. */
export interface CallerParams {
  tool_choice?: Anthropic.ToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id?: string | null };
}

/** The SDK's tools parameter: omitted when none are offered. */
function toolsParam(tools: ToolDef[] | undefined): Anthropic.Tool[] | undefined {
  return tools && tools.length > 0 ? (tools as Anthropic.Tool[]) : undefined;
}

export interface LlmReply {
  content: ContentBlock[];
  /** Null for the offline responder, which measures nothing. */
  usage: LlmUsage | null;
  stopReason: string | null;
  /** The stop sequence that ended the reply, when one did. */
  stopSequence?: string | null;
}

/** The Anthropic client, or null when no API key is configured (offline responder mode). */
export function anthropicClient(): Anthropic | null {
  const e = env();
  if (!e.ANTHROPIC_API_KEY) return null;
  return new Anthropic({
    apiKey: e.ANTHROPIC_API_KEY,
    baseURL: e.ANTHROPIC_BASE_URL,
    // The SDK retries 408/409/429/5xx (529 included) with exponential backoff and Retry-After.
    maxRetries: e.THREADKEEPER_MAX_RETRIES ?? 2,
    timeout: e.THREADKEEPER_REQUEST_TIMEOUT_MS ?? 10 * 60 * 1000,
  });
}

/** Input tokens the API billed for a request, cache reads and writes included. */
export function measuredInput(usage: LlmUsage): number {
  return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}

export function streamReply(client: Anthropic, req: LlmRequest, onText: (delta: string) => void, signal?: AbortSignal): Promise<LlmReply> {
  return inSpan("claude", genAiAttributes("chat", req.model), (span) =>
    timeClaudeCall("chat", async () => {
      const reply = await streamOnce(client, req, onText, signal);
      if (reply.usage) {
        countBilledTokens(reply.usage);
        span?.setAttributes({
          "gen_ai.usage.input_tokens": reply.usage.input_tokens,
          "gen_ai.usage.output_tokens": reply.usage.output_tokens,
          "gen_ai.usage.cache_read.input_tokens": reply.usage.cache_read_input_tokens,
          "gen_ai.usage.cache_creation.input_tokens": reply.usage.cache_creation_input_tokens,
          "gen_ai.response.finish_reasons": reply.stopReason ? [reply.stopReason] : [],
        });
      }
      return reply;
    }),
  );
}

/** The attributes of a span around a call to Claude (OpenTelemetry's GenAI conventions). */
export function genAiAttributes(operation: string, model: string) {
  return { "gen_ai.system": "anthropic", "gen_ai.provider.name": "anthropic", "gen_ai.operation.name": operation, "gen_ai.request.model": model };
}

async function streamOnce(client: Anthropic, req: LlmRequest, onText: (delta: string) => void, signal?: AbortSignal): Promise<LlmReply> {
  const stream = client.messages.stream(
    {
    model: req.model,
    system: req.system.length > 0 ? req.system : undefined,
    tools: toolsParam(req.tools),
    max_tokens: req.maxTokens,
    messages: req.messages as Anthropic.MessageParam[],
    ...req.params,
    },
    { signal },
  );
  stream.on("text", (delta) => onText(delta));
  const final = await stream.finalMessage();
  return {
    content: final.content.flatMap(toStoredBlock),
    usage: {
      input_tokens: final.usage.input_tokens,
      output_tokens: final.usage.output_tokens,
      cache_creation_input_tokens: final.usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: final.usage.cache_read_input_tokens ?? 0,
    },
    stopReason: final.stop_reason,
    stopSequence: final.stop_sequence,
  };
}

/** The API's exact input count for a request (used near the threshold). */
export function countTokens(client: Anthropic, req: Omit<LlmRequest, "maxTokens">): Promise<number> {
  return inSpan("claude", genAiAttributes("count_tokens", req.model), () =>
    timeClaudeCall("count_tokens", async () => {
      const res = await client.messages.countTokens({
        model: req.model,
        system: req.system.length > 0 ? req.system : undefined,
        tools: toolsParam(req.tools),
        messages: req.messages as Anthropic.MessageParam[],
        ...(req.params?.tool_choice ? { tool_choice: req.params.tool_choice } : {}),
      });
      return res.input_tokens;
    }),
  );
}

// We store only the block kinds our engine understands; thinking and server-tool blocks
// are not requested, so anything else is dropped rather than persisted half-understood.
function toStoredBlock(block: Anthropic.ContentBlock): ContentBlock[] {
  if (block.type === "text") return [{ type: "text", text: block.text }];
  if (block.type === "tool_use") return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
  return [];
}

/** "prompt is too long" and its variants: the request exceeded the model's window. */
export function isPromptTooLong(err: unknown): boolean {
  return (
    err instanceof Anthropic.APIError &&
    err.status === 400 &&
    /prompt is too long|too many (input )?tokens|exceeds? .*context (window|length)|input length and `max_tokens` exceed/i.test(
      err.message,
    )
  );
}

export { Anthropic };
