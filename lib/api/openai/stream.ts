// The streamed chat completion: `chat.completion.chunk` frames as OpenAI sends them (the role
// first, then text and function-call deltas as Claude writes them, the finish reason, the usage
// when `stream_options.include_usage` asks, then `[DONE]`), built from the turn's block events.
// The turn runs to its end even if the client goes away, so the session keeps the reply.
import "server-only";
import type { SendEvent } from "@/lib/contract";
import type { AnthropicCreateRequest } from "@/lib/contract/anthropic";
import type { FinishReason, OpenAIChatChunk } from "@/lib/contract/openai";
import type { BlockEvent } from "@/lib/llm/client";
import { startDropIn, type DropInHeaders } from "@/lib/turn/drop-in";
import { eventStream } from "../sse";
import { recordView, sessionHeaders } from "../turn-answer";
import { Completion, REPLY_SEPARATOR, usageJson } from "./completion";
import { openaiErrorFrame } from "./errors";

type Delta = OpenAIChatChunk["choices"][number]["delta"];

const frame = (data: object | string) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export async function streamCompletion(userId: string, headers: DropInHeaders, request: AnthropicCreateRequest, completion: Completion, includeUsage: boolean): Promise<Response> {
  let send: (text: string) => void = () => {};
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (delta: Delta, finish: FinishReason | null = null): OpenAIChatChunk => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...usageField,
  });
  let reply = 0;
  let lastTextReply: number | null = null;
  let toolCalls = 0;
  // This reply's block index → the call's index among the message's tool_calls.
  let calls = new Map<number, number>();
  const text = (t: unknown) => {
    if (typeof t !== "string" || t === "") return;
    const separator = lastTextReply !== null && lastTextReply !== reply ? REPLY_SEPARATOR : "";
    lastTextReply = reply;
    send(frame(chunk({ content: separator + t })));
  };
  const turn = await startDropIn(userId, headers, request, (r) => {
    completion.add(r);
    reply++;
    calls = new Map();
  });
  const onEvent = (e: SendEvent) => {
    completion.note(e);
    if (e.event !== "block") return;
    const b = e.data as BlockEvent;
    if (b.type === "content_block_start") {
      const block = b.content_block;
      if (block.type === "text") text(block.text);
      else if (block.type === "tool_use" && completion.isCallerTool(block.name)) {
        const index = toolCalls++;
        calls.set(b.index, index);
        send(frame(chunk({ tool_calls: [{ index, id: String(block.id), type: "function", function: { name: String(block.name), arguments: "" } }] })));
      }
    } else if (b.type === "content_block_delta") {
      if (b.delta.type === "text_delta") text(b.delta.text);
      const index = calls.get(b.index);
      const args = b.delta.partial_json;
      if (b.delta.type === "input_json_delta" && index !== undefined && typeof args === "string" && args !== "") {
        send(frame(chunk({ tool_calls: [{ index, function: { arguments: args } }] })));
      }
    }
  };
  return eventStream(async (write) => {
    send = write;
    send(frame(chunk({ role: "assistant", content: "" })));
    if (turn.prepared.kind === "turn") await turn.prepared.run(onEvent, { detachFollowUp: true });
    await recordView(turn, completion, completion.view());
    if (completion.error) {
      send(openaiErrorFrame(completion.error));
      return;
    }
    send(frame(chunk({}, completion.finishReason())));
    if (includeUsage) send(frame({ ...chunk({}), choices: [], usage: usageJson(completion.finalUsage()) }));
    send(frame("[DONE]"));
  }, sessionHeaders(turn));
}
