/** A planned message as the API sends it: one JSON body, or the exact SSE event sequence. */
import type { CacheSplit } from "./prompt-cache";
import type { MessagePlan } from "./plan";
import { countOutputTokens } from "./tokenizer";
import type { OutputBlock } from "./types";

export interface SseFrame {
  event: string;
  data: Record<string, unknown>;
}

function outputTokens(plan: MessagePlan): number {
  return countOutputTokens(plan.content, plan.hiddenThinking);
}

function usage(plan: MessagePlan, input: CacheSplit, output: number): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  const thinking = plan.content.filter((b) => b.type === "thinking" || b.type === "redacted_thinking");
  if (thinking.length > 0) {
    extra.output_tokens_details = { thinking_tokens: countOutputTokens(thinking, plan.hiddenThinking) };
  }
  if (plan.webSearchRequests > 0) extra.server_tool_use = { web_search_requests: plan.webSearchRequests, web_fetch_requests: 0 };
  return { ...input, output_tokens: output, service_tier: "standard", ...extra };
}

export function messageBody(id: string, model: string, plan: MessagePlan, input: CacheSplit): Record<string, unknown> {
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content: plan.content,
    stop_reason: plan.stopReason,
    stop_sequence: null,
    stop_details: null,
    ...(plan.transformations ? { input_transformations: plan.transformations } : {}),
    usage: usage(plan, input, outputTokens(plan)),
  };
}

/** Word-sized pieces (each keeps its trailing whitespace) so streaming is visible in the UI. */
function textChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Up to three pieces of the serialized JSON, like the real API's input_json_delta fragments. */
function jsonChunks(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / 3));
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
  return chunks;
}

/** content_block_start's block and the deltas that complete it, per block type as the API streams them. */
function blockEvents(block: OutputBlock): { start: Record<string, unknown>; deltas: Record<string, unknown>[] } {
  switch (block.type) {
    case "text":
      return {
        start: { type: "text", text: "" },
        deltas: [
          ...(block.citations ?? []).map((citation) => ({ type: "citations_delta", citation })),
          ...textChunks(block.text).map((text) => ({ type: "text_delta", text })),
        ],
      };
    case "tool_use":
      return {
        start: { type: "tool_use", id: block.id, name: block.name, input: {} },
        deltas: jsonChunks(JSON.stringify(block.input)).map((partial_json) => ({ type: "input_json_delta", partial_json })),
      };
    case "server_tool_use":
      return {
        start: { ...block, input: {} },
        deltas: jsonChunks(JSON.stringify(block.input)).map((partial_json) => ({ type: "input_json_delta", partial_json })),
      };
    case "thinking":
      return {
        start: { type: "thinking", thinking: "", signature: "" },
        deltas: [
          ...textChunks(block.thinking).map((thinking) => ({ type: "thinking_delta", thinking })),
          { type: "signature_delta", signature: block.signature },
        ],
      };
    // Redacted thinking and server tool results arrive whole in content_block_start.
    case "redacted_thinking":
    case "web_search_tool_result":
      return { start: block, deltas: [] };
  }
}

/** The exact event sequence the real API streams for one message. */
export function streamFrames(id: string, model: string, plan: MessagePlan, input: CacheSplit): SseFrame[] {
  const start = messageBody(id, model, plan, input);
  const frames: SseFrame[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        // As in the real API, message_start reports output_tokens: 1; message_delta has the final count.
        message: { ...start, content: [], stop_reason: null, usage: usage(plan, input, 1) },
      },
    },
  ];
  plan.content.forEach((block, index) => {
    const { start: contentBlock, deltas } = blockEvents(block);
    frames.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: contentBlock } });
    if (index === 0) frames.push({ event: "ping", data: { type: "ping" } });
    for (const delta of deltas) frames.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  const finalUsage: Record<string, unknown> = { output_tokens: outputTokens(plan) };
  if (plan.webSearchRequests > 0) finalUsage.server_tool_use = { web_search_requests: plan.webSearchRequests, web_fetch_requests: 0 };
  frames.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: plan.stopReason, stop_sequence: null, stop_details: null },
        usage: finalUsage,
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return frames;
}

/** Frames up to the Nth delta of a dropped stream — never reaching a stop event. */
export function truncateForDrop(frames: SseFrame[], afterChunks: number): SseFrame[] {
  const kept: SseFrame[] = [];
  let deltas = 0;
  for (const frame of frames) {
    if (frame.event === "content_block_delta" && deltas >= afterChunks) break;
    if (frame.event === "content_block_stop" || frame.event === "message_delta" || frame.event === "message_stop") break;
    kept.push(frame);
    if (frame.event === "content_block_delta") deltas++;
  }
  return kept;
}

export function encodeFrame(frame: SseFrame): string {
  return `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

