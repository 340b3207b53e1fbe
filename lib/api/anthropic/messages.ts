// The answer to a drop-in Messages API request, as Anthropic gives it: one JSON message, or
// its SSE event sequence (message_start, ping, content_block_start/delta/stop, message_delta,
// message_stop), built from the turn's events and each reply Claude gave in it.
import "server-only";
import { randomBytes } from "node:crypto";
import type { SendEvent } from "@/lib/contract";
import type { AnthropicBlockOut, AnthropicCreateRequest, AnthropicMessage, AnthropicUsage } from "@/lib/contract/anthropic";
import type { BlockEvent, LlmReply } from "@/lib/llm/client";
import { wireMessages } from "@/lib/context/api-messages";
import type { KeyBlock } from "@/lib/context/client-history";
import { startDropIn, type DropInHeaders } from "@/lib/turn/drop-in";
import { eventStream } from "../sse";
import { contextHeaders, recordView, sessionHeaders, TurnTally } from "../turn-answer";
import { anthropicError, anthropicErrorFrame } from "./errors";

type StopReason = AnthropicMessage["stop_reason"];

/** The caller's answer, gathered from the replies of one turn (Threadkeeper's own tool rounds included). */
class Answer extends TurnTally {
  readonly id = `msg_${randomBytes(12).toString("hex")}`;
  content: AnthropicBlockOut[] = [];
  stopReason: StopReason = null;
  stopSequence: string | null = null;
  /** Fields of Claude's last answer beyond the message (container, context_management, …). */
  extra: Record<string, unknown> = {};

  constructor(
    readonly model: string,
    private readonly callerTools: ReadonlySet<string>,
  ) {
    super();
  }

  /** Whether the caller sees a block: everything Claude said but calls of Threadkeeper's own tools, which run inside the request. */
  shows(b: { type: string; name?: unknown }): boolean {
    return b.type !== "tool_use" || (typeof b.name === "string" && this.callerTools.has(b.name));
  }

  /** What the caller sees of a reply: every block as Claude gave it, but Threadkeeper's own tool calls. */
  visible(reply: LlmReply): AnthropicBlockOut[] {
    return wireMessages([{ role: "assistant", content: reply.content }]).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => this.shows(b) && !(b.type === "text" && b.text === "")) : []));
  }

  add(reply: LlmReply): AnthropicBlockOut[] {
    const shown = this.visible(reply);
    this.content.push(...shown);
    this.stopReason = reply.stopReason ?? null;
    this.stopSequence = reply.stopSequence ?? null;
    this.extra = reply.extra ?? {};
    this.addUsage(reply);
    return shown;
  }

  json(): AnthropicMessage {
    const content = this.content;
    return { id: this.id, type: "message", role: "assistant", model: this.model, content, stop_reason: this.stopReason, stop_sequence: this.stopSequence, ...this.extra, usage: this.finalUsage() };
  }
}

/** Runs a drop-in request and answers it as the Messages API would. */
export async function createMessage(userId: string, headers: DropInHeaders, body: AnthropicCreateRequest): Promise<Response> {
  const answer = new Answer(body.model, new Set((body.tools ?? []).map((t) => t.name)));
  if (body.stream) return streamMessage(userId, headers, body, answer);
  const turn = await startDropIn(userId, headers, body, (reply) => answer.add(reply));
  if (turn.prepared.kind === "turn") await turn.prepared.run((e) => answer.note(e), { detachFollowUp: true });
  await recordView(turn, answer, answer.content as KeyBlock[]);
  const responseHeaders = { ...sessionHeaders(turn), ...contextHeaders(answer.status) };
  if (answer.error) {
    const { status, body: err } = anthropicError(answer.error);
    return Response.json(err, { status, headers: { ...responseHeaders, ...answer.error.headers } });
  }
  return Response.json(answer.json(), { status: 200, headers: responseHeaders });
}

const frame = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

/**
 * The SSE answer: Claude's block events passed on as they come (text, thinking_delta and
 * signature_delta, tool input, server tool blocks), renumbered across the replies of the turn,
 * with Threadkeeper's own tool calls left out. message_start waits for the first call's
 * message_start, so it carries Claude's own input counts (clients such as LangChain and the AI
 * SDK read input tokens there and nowhere else); a comment goes out at once meanwhile. The turn
 * runs to its end even if the client goes away, so the session keeps the reply.
 */
async function streamMessage(userId: string, headers: DropInHeaders, body: AnthropicCreateRequest, answer: Answer): Promise<Response> {
  let send: (text: string) => void = () => {};
  let next = 0;
  // This reply's block index → the answer's, for the blocks the caller sees.
  let shown = new Map<number, number>();
  let started = false;
  const start = (usage: AnthropicUsage) => {
    if (started) return;
    started = true;
    const message = { id: answer.id, type: "message", role: "assistant", model: answer.model, content: [], stop_reason: null, stop_sequence: null, usage };
    send(frame("message_start", { message }));
    send(frame("ping", {}));
  };
  const turn = await startDropIn(userId, headers, body, (reply) => {
    answer.add(reply);
    shown = new Map();
  });
  const onEvent = (e: SendEvent) => {
    answer.note(e);
    if (e.event === "usage") {
      const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens } = e.data;
      start({ input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens });
    }
    if (e.event !== "block") return;
    const b = e.data as BlockEvent;
    if (b.type === "content_block_start") {
      if (!answer.shows(b.content_block)) return;
      shown.set(b.index, next++);
    }
    const index = shown.get(b.index);
    if (index === undefined) return;
    start(answer.finalUsage());
    send(frame(b.type, { ...b, index }));
  };
  return eventStream(async (write) => {
    send = write;
    // An SSE comment: every client skips it, and the answer's headers and first bytes leave now.
    send(": threadkeeper\n\n");
    if (turn.prepared.kind === "turn") await turn.prepared.run(onEvent, { detachFollowUp: true });
    // No call to Claude started (it failed first): the usage known now, our estimate included.
    start(answer.finalUsage());
    await recordView(turn, answer, answer.content as KeyBlock[]);
    if (answer.error) send(anthropicErrorFrame(answer.error));
    else {
      // The usage counters are whole-message totals here: the SDK overwrites its snapshot with them.
      send(frame("message_delta", { delta: { stop_reason: answer.stopReason, stop_sequence: answer.stopSequence, ...answer.extra }, usage: answer.finalUsage() }));
      send(frame("message_stop", {}));
    }
  }, sessionHeaders(turn));
}
