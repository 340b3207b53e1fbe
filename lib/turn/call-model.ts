// One call for a reply: Claude when a key is configured, else the offline responder, which
// streams its text the same way so every caller sees one kind of stream.
import "server-only";
import { env } from "@/lib/env";
import { streamReply, wholeBlockEvents, type anthropicClient, type LlmReply, type LlmRequest, type LlmUsage, type StreamListener } from "@/lib/llm/client";
import { OFFLINE_BANNER, offlineReply, streamOffline } from "@/lib/llm/offline";
import { DEMO_CANVAS_TEXT, offlineCanvasDemo } from "@/lib/llm/offline-canvas";
import { offlineToolUse } from "@/lib/llm/offline-recall";
import type { ContentBlock } from "@/lib/context/types";

/** Like StreamListener, but `start` gets null when no Claude counted the request (the offline responder). */
export interface CallListener extends Omit<StreamListener, "start"> {
  start: (usage: LlmUsage | null) => void;
}

export async function callModel(client: ReturnType<typeof anthropicClient>, request: LlmRequest, listen: CallListener, signal: AbortSignal): Promise<LlmReply> {
  if (client) return streamReply(client, request, listen, signal);
  const onBlock = listen.block;
  const system = request.system.map((b) => b.text).join("");
  const demo = offlineCanvasDemo(request.messages, request.tools ?? []);
  const toolUse = demo ? null : offlineToolUse(request.messages, request.tools ?? []);
  const uses: ContentBlock[] = demo ?? (toolUse ? [toolUse] : []);
  const text = demo
    ? `${OFFLINE_BANNER}\n\n${DEMO_CANVAS_TEXT}`
    : toolUse
      ? `${OFFLINE_BANNER}\n\nLet me search our earlier conversations for "${toolUse.input.query}".`
      : offlineReply({ messages: request.messages, system, model: request.model }).text;
  listen.start(null);
  onBlock({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  for await (const chunk of streamOffline(text, env().THREADKEEPER_OFFLINE_DELAY_MS ?? 15)) {
    signal.throwIfAborted();
    onBlock({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: chunk } });
  }
  onBlock({ type: "content_block_stop", index: 0 });
  uses.forEach((u, i) => wholeBlockEvents(i + 1, u).forEach(onBlock));
  if (uses.length) return { content: [{ type: "text", text }, ...uses], usage: null, stopReason: "tool_use" };
  return { content: [{ type: "text", text }], usage: null, stopReason: "end_turn" };
}
