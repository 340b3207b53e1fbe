import "server-only";
import Anthropic from "@anthropic-ai/sdk";
import { env } from "@/lib/env";
import { anthropicKey } from "./stored-key";
import { countBilledTokens, timeClaudeCall } from "@/lib/metrics";
import { inSpan } from "@/lib/tracing";
import type { SystemBlock } from "@/lib/context/prompt-cache";
import { wireMessages } from "@/lib/context/api-messages";
import type { FileBody } from "@/lib/context/files";
import type { ApiMessage, ContentBlock } from "@/lib/context/types";
import { KNOWN_BLOCK_TYPES } from "@/lib/contract/messages";
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
  /** A drop-in caller's own fields of the request (sampling, thinking, output_config, any field the API adds), sent as they came. */
  params?: CallerParams;
  /** Beta features the request asks for (the `anthropic-beta` header), the caller's and Threadkeeper's. */
  betas?: readonly string[];
  /** The bytes of the stored files the messages carry, by file id (lib/context/files.ts). */
  files?: ReadonlyMap<string, FileBody>;
}

/** The Messages API fields Threadkeeper passes through untouched for a drop-in caller. */
export type CallerParams = Readonly<Record<string, unknown>> & { tool_choice?: Anthropic.ToolChoice };

/** The SDK's tools parameter: omitted when none are offered. */
function toolsParam(tools: ToolDef[] | undefined): Anthropic.Tool[] | undefined {
  return tools && tools.length > 0 ? (tools as Anthropic.Tool[]) : undefined;
}

/** A content block's streaming event, as the API sends it (its index is the reply's). */
export type BlockEvent =
  | { type: "content_block_start"; index: number; content_block: Record<string, unknown> & { type: string } }
  | { type: "content_block_delta"; index: number; delta: Record<string, unknown> & { type: string } }
  | { type: "content_block_stop"; index: number };

/**
 * What a streamed call reports as it goes: each block's events, and Claude's count of the
 * request's input from its message_start, before the first block (a drop-in answer opens with it).
 */
export interface StreamListener {
  block: (e: BlockEvent) => void;
  start: (usage: LlmUsage) => void;
}

export interface LlmReply {
  content: ContentBlock[];
  /** Null for the offline responder, which measures nothing. */
  usage: LlmUsage | null;
  stopReason: string | null;
  /** The stop sequence that ended the reply, when one did. */
  stopSequence?: string | null;
  /** Fields of the API's answer beyond the message itself (`container`, `context_management`, …), as they came. */
  extra?: Record<string, unknown>;
}

/** The Anthropic client, or null when no API key is configured (offline responder mode). */
export function anthropicClient(): Anthropic | null {
  const e = env();
  const { key } = anthropicKey();
  if (!key) return null;
  return new Anthropic({
    apiKey: key,
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

export function streamReply(client: Anthropic, req: LlmRequest, listen: StreamListener, signal?: AbortSignal): Promise<LlmReply> {
  return inSpan("claude", genAiAttributes("chat", req.model), (span) =>
    timeClaudeCall("chat", async () => {
      const reply = await streamOnce(client, req, listen, signal);
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

/** The body's fields: Threadkeeper's window and tools, and the caller's own fields as they came. */
function requestBody(req: Omit<LlmRequest, "maxTokens">) {
  return {
    ...req.params,
    model: req.model,
    system: req.system.length > 0 ? req.system : undefined,
    tools: toolsParam(req.tools),
    messages: wireMessages(req.messages, req.files) as Anthropic.MessageParam[],
  };
}

function betaHeaders(betas: readonly string[] | undefined) {
  return betas && betas.length > 0 ? { "anthropic-beta": betas.join(",") } : undefined;
}

// The answer's own fields; anything else the API adds is the caller's to see.
const MESSAGE_FIELDS = new Set(["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"]);

/** The SDK's usage as ours: absent cache counts are none. */
function llmUsage(u: Anthropic.Usage): LlmUsage {
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
}

async function streamOnce(client: Anthropic, req: LlmRequest, listen: StreamListener, signal?: AbortSignal): Promise<LlmReply> {
  const stream = client.messages.stream({ ...requestBody(req), max_tokens: req.maxTokens }, { signal, headers: betaHeaders(req.betas) });
  stream.on("streamEvent", (event) => {
    if (event.type === "message_start") listen.start(llmUsage(event.message.usage));
    else if (event.type === "content_block_start" || event.type === "content_block_delta" || event.type === "content_block_stop") listen.block(event as BlockEvent);
  });
  const final = await stream.finalMessage();
  const extra = Object.fromEntries(Object.entries(final).filter(([k]) => !MESSAGE_FIELDS.has(k)));
  return {
    content: final.content.map(storedBlock),
    usage: llmUsage(final.usage),
    stopReason: final.stop_reason,
    stopSequence: final.stop_sequence,
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** The API's exact input count for a request (used near the threshold). */
export function countTokens(client: Anthropic, req: Omit<LlmRequest, "maxTokens">): Promise<number> {
  return inSpan("claude", genAiAttributes("count_tokens", req.model), () =>
    timeClaudeCall("count_tokens", async () => {
      const res = await client.messages.countTokens(requestBody({ ...req, params: countParams(req.params) }), { headers: betaHeaders(req.betas) });
      return res.input_tokens;
    }),
  );
}

// count_tokens takes only the fields that change what the prompt is; sampling fields are refused there.
const COUNT_FIELDS = ["tool_choice", "thinking", "mcp_servers", "context_management", "output_config", "cache_control"];
function countParams(params: CallerParams | undefined): CallerParams | undefined {
  if (!params) return undefined;
  return Object.fromEntries(COUNT_FIELDS.filter((k) => params[k] !== undefined).map((k) => [k, params[k]]));
}

/**
 * A block of Claude's reply as stored: every kind kept whole, fields as the API sent them (the
 * SDK's own additions, such as a parsed copy of structured output, left out); a kind the
 * contract does not know is kept opaque and sent back verbatim.
 */
export function storedBlock(block: Anthropic.ContentBlock): ContentBlock {
  const sent = Object.fromEntries(Object.entries(block).filter(([k]) => !SDK_FIELDS.has(k)));
  const plain = JSON.parse(JSON.stringify(sent)) as { type: string } & Record<string, unknown>;
  return KNOWN_BLOCK_TYPES.has(plain.type) ? (plain as ContentBlock) : { type: "opaque", block: plain };
}
const SDK_FIELDS = new Set(["parsed_output"]);

/** The streaming events of a whole block, for a reply that was not streamed block by block (the offline responder). */
export function wholeBlockEvents(index: number, block: ContentBlock): BlockEvent[] {
  if (block.type === "tool_use") {
    return [
      { type: "content_block_start", index, content_block: { ...block, input: {} } },
      { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
      { type: "content_block_stop", index },
    ];
  }
  const sent = wireMessages([{ role: "assistant", content: [block] }])[0]?.content;
  const wire = Array.isArray(sent) ? sent[0] : { type: "text", text: "" };
  return [{ type: "content_block_start", index, content_block: wire }, { type: "content_block_stop", index }];
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
