// The answer to a drop-in Messages API request, as Anthropic gives it: one JSON message, or
// its SSE event sequence (message_start, ping, content_block_start/delta/stop, message_delta,
// message_stop), built from the turn's events and each reply Claude gave in it.
import "server-only";
import { randomBytes } from "node:crypto";
import type { ContextStatusJson, SendEvent } from "@/lib/contract";
import {
  CONTEXT_CAPACITY_HEADER,
  CONTEXT_PERCENT_HEADER,
  CONTEXT_TOKENS_HEADER,
  HISTORY_HEADER,
  SESSION_FOUND_HEADER,
  SESSION_HEADER,
  type AnthropicBlockOut,
  type AnthropicCreateRequest,
  type AnthropicMessage,
  type AnthropicUsage,
} from "@/lib/contract/anthropic";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { BlockEvent, LlmReply } from "@/lib/llm/client";
import { wireMessages } from "@/lib/context/api-messages";
import type { KeyBlock } from "@/lib/context/client-history";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { startDropIn, type DropIn, type DropInHeaders } from "@/lib/turn/drop-in";
import { turnFailureStatus } from "@/lib/turn/errors";
import { eventStream } from "../sse";
import { anthropicError, anthropicErrorFrame } from "./errors";

type StopReason = AnthropicMessage["stop_reason"];

/** The caller's answer, gathered from the replies of one turn (Threadkeeper's own tool rounds included). */
class Answer {
  readonly id = `msg_${randomBytes(12).toString("hex")}`;
  content: AnthropicBlockOut[] = [];
  stopReason: StopReason = null;
  stopSequence: string | null = null;
  /** Fields of Claude's last answer beyond the message (container, context_management, …). */
  extra: Record<string, unknown> = {};
  usage: AnthropicUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  measured = false;
  status: ContextStatusJson | null = null;
  error: AppError | null = null;
  /** The seq of the turn's last stored message. */
  lastSeq = 0;

  constructor(
    readonly model: string,
    private readonly callerTools: ReadonlySet<string>,
  ) {}

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
    if (reply.usage) {
      this.measured = true;
      this.usage.input_tokens += reply.usage.input_tokens;
      this.usage.output_tokens += reply.usage.output_tokens;
      this.usage.cache_creation_input_tokens = (this.usage.cache_creation_input_tokens ?? 0) + reply.usage.cache_creation_input_tokens;
      this.usage.cache_read_input_tokens = (this.usage.cache_read_input_tokens ?? 0) + reply.usage.cache_read_input_tokens;
    } else {
      // The offline responder measures nothing: our own estimate of what it wrote.
      this.usage.output_tokens += estimateMessageTokens("assistant", reply.content);
    }
    return shown;
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

  finalUsage(): AnthropicUsage {
    if (this.measured || !this.status) return this.usage;
    return { ...this.usage, input_tokens: this.status.current_tokens };
  }

  json(): AnthropicMessage {
    const content = this.content;
    return { id: this.id, type: "message", role: "assistant", model: this.model, content, stop_reason: this.stopReason, stop_sequence: this.stopSequence, ...this.extra, usage: this.finalUsage() };
  }
}

/** Remembers what the client now holds of the conversation; a failure only costs the next request a read. */
async function recordView(turn: DropIn, answer: Answer): Promise<void> {
  if (answer.error || answer.content.length === 0 || !turn.recordView || answer.lastSeq === 0) return;
  await turn.recordView(answer.content as KeyBlock[], answer.lastSeq).catch((e: unknown) => log.error("[threadkeeper] recording the client's view failed", e));
}

function sessionHeaders(turn: DropIn): Record<string, string> {
  return { [SESSION_HEADER]: turn.sessionId, [SESSION_FOUND_HEADER]: turn.foundBy, [HISTORY_HEADER]: turn.history };
}

function contextHeaders(status: ContextStatusJson | null): Record<string, string> {
  if (!status) return {};
  return {
    [CONTEXT_TOKENS_HEADER]: String(status.current_tokens),
    [CONTEXT_CAPACITY_HEADER]: String(status.capacity_tokens),
    [CONTEXT_PERCENT_HEADER]: status.usage_percent.toFixed(1),
  };
}

/** Runs a drop-in request and answers it as the Messages API would. */
export async function createMessage(userId: string, headers: DropInHeaders, body: AnthropicCreateRequest): Promise<Response> {
  const answer = new Answer(body.model, new Set((body.tools ?? []).map((t) => t.name)));
  if (body.stream) return streamMessage(userId, headers, body, answer);
  const turn = await startDropIn(userId, headers, body, (reply) => answer.add(reply));
  if (turn.prepared.kind === "turn") await turn.prepared.run((e) => answer.note(e), { detachFollowUp: true });
  await recordView(turn, answer);
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
    await recordView(turn, answer);
    if (answer.error) send(anthropicErrorFrame(answer.error));
    else {
      // The usage counters are whole-message totals here: the SDK overwrites its snapshot with them.
      send(frame("message_delta", { delta: { stop_reason: answer.stopReason, stop_sequence: answer.stopSequence, ...answer.extra }, usage: answer.finalUsage() }));
      send(frame("message_stop", {}));
    }
  }, sessionHeaders(turn));
}
