import "server-only";
import { z } from "zod";
import type { SendEvent, SendResultJson } from "@/lib/contract";
import { MAX_OVERFLOW_ATTEMPTS, overflowTarget } from "@/lib/context/compaction/overflow";
import { hasThinking, markThinking, requestDigest, withoutThinking } from "@/lib/context/thinking";
import { blocksToText } from "@/lib/context/text";
import { startsTurn } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage } from "@/lib/context/types";
import type { TurnFacts } from "@/lib/context/checkpoint-triggers";
import { withUser, type Tx } from "@/lib/db";
import { appendMessage, findByIdempotencyKey, finishMessage, messageJson, type MessageEnd, type MessageRow, type NewMessage } from "@/lib/db/messages";
import { finishReply } from "@/lib/db/reply-call";
import { getSession, type SessionRow } from "@/lib/db/sessions";
import { AppError, conflict } from "@/lib/errors";
import { anthropicClient, isPromptTooLong, measuredInput, type BlockEvent, type LlmReply, type LlmUsage } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { countTurn } from "@/lib/metrics";
import { trackTurn } from "@/lib/shutdown";
import { inSpan } from "@/lib/tracing";
import { calibrate, updateFactor } from "@/lib/tokens/calibration";
import { countMessageOffThread } from "@/lib/tokens/off-thread";
import { callModel } from "./call-model";
import { afterTurn, emitStatus, loadMemories, nameSession, settleWithReply } from "./after-turn";
import { turnFacts } from "@/lib/operations/checkpoints";
import { llmError } from "./errors";
import { startFlusher, type StreamState } from "./flusher";
import { startLiveDeltas } from "./live-deltas";
import { leaseForTurn, leaseGivenBack, leaseWithMessage, release } from "@/lib/operations/lease";
import { loadWindow, planRequest, recoverFromOverflow, type KnownSession, type PlannedWindow } from "./plan-request";
import { buildRequest, withFileBodies, type BuiltRequest } from "./request";
import { branchPoint, lastUserMessage, replayFor } from "./replay";
import { registerTurn } from "@/lib/operations/stop";
import { canvasBudget } from "@/lib/operations/canvas";
import { contextAfter, refreshContext, type SessionContext } from "@/lib/operations/session-context";
import { answerToolUses, MAX_TOOL_ROUNDS } from "./tool-calls";
import type { Emit, TurnHandle } from "./turn-handle";
import { maxMessageBytes, sendSchema } from "@/lib/contract/requests";
import { attachmentBlocks } from "@/lib/operations/files";

export type { Emit } from "./turn-handle";

export type SendInput = z.infer<typeof sendSchema>;

export type PreparedSend =
  | { kind: "replay"; events: SendEvent[] }
  /** `detachFollowUp`: return once the reply is saved; automatic compaction then runs on its own. */
  | { kind: "turn"; run: (emit: Emit, opts?: { detachFollowUp?: boolean }) => Promise<void> };

/**
 * Everything that can fail with a plain HTTP error happens here, before any event is
 * streamed: validation, the session lookup, an idempotent replay, waiting for the turn lease
 * and saving the user message. The returned `run` then never throws.
 */
export async function prepareSend(userId: string, sessionId: string, input: SendInput): Promise<PreparedSend> {
  if (input.content !== undefined && Buffer.byteLength(input.content, "utf8") > maxMessageBytes()) {
    throw new AppError(413, "message_too_large", `Message exceeds ${maxMessageBytes()} bytes`, {
      max_bytes: maxMessageBytes(),
    });
  }
  if (input.idempotency_key) {
    const replay = await replayFor(userId, sessionId, input.idempotency_key);
    if (replay) return replay;
  }
  const mode: TurnMode = input.retry ? "retry" : input.regenerate ? "regenerate" : "new";
  // Files first, then the words about them (Claude reads documents best before the question).
  const attached = mode === "new" && input.attachments ? await attachmentBlocks(userId, sessionId, input.attachments) : [];
  const content: ContentBlock[] = [...attached, ...(input.content !== undefined || attached.length === 0 ? [{ type: "text" as const, text: input.content ?? "" }] : [])];
  // Counted before the lease, and off the event loop when large: a 1 MB message is ~0.5 s of BPE.
  const tokenCount = await countMessageOffThread("user", content);
  // The lease (and the session's 404) and the user message in one transaction; an ordinary
  // turn's window is assembled and its reply opened there too, when no compaction comes first.
  const { leaseId, value } =
    mode === "new" && !input.edit_of
      ? await leaseWithMessage(userId, sessionId, newMessage(), async (tx, taken) => ({
          saved: taken.message,
          mode,
          planned: await planWithMessage(tx, { userId, sessionId, userMessage: taken.message }, mode, taken),
        }))
      : await leaseForTurn(userId, sessionId, async (tx) => {
          const found = await saveMessage(tx);
          return found && { ...found, planned: await planWithMessage(tx, { userId, sessionId, userMessage: found.saved }, found.mode) };
        });
  if (!value) {
    await release(userId, sessionId, leaseId);
    const replay = await replayFor(userId, sessionId, input.idempotency_key ?? "");
    if (replay) return replay;
    throw conflict("request_in_progress", "A request with this idempotency key is in progress");
  }
  return turnFor({ userId, sessionId, leaseId, userMessage: value.saved, stop: new AbortController() }, value.mode, value.planned);

  function newMessage(supersedesTurn?: number): NewMessage {
    return {
      role: "user",
      content,
      text: blocksToText(content),
      tokenCount,
      status: "complete",
      startsTurn: startsTurn("user", content),
      idempotencyKey: input.idempotency_key,
      supersedesTurn,
    };
  }

  /**
   * Any other turn's message (a retry, a regeneration, an edit), saved under the lease just
   * taken, and the turn it makes: regenerating an earlier turn's reply asks that turn's message
   * again as a new version, as an unchanged edit would.
   */
  async function saveMessage(tx: Tx): Promise<{ saved: MessageRow; mode: TurnMode } | null> {
    // Checked again under the lease: a concurrent duplicate may have just finished.
    if (input.idempotency_key && (await findByIdempotencyKey(tx, userId, sessionId, input.idempotency_key))) return null;
    if (input.retry) return { saved: await lastUserMessage(tx, userId, sessionId, "retry"), mode };
    if (input.reply_id) {
      const asked = await branchPoint(tx, userId, sessionId, input.reply_id, "reply");
      if (asked.turn_seq === (await getSession(tx, userId, sessionId)).last_turn_seq) return { saved: asked, mode };
      const again = { ...newMessage(asked.turn_seq), content: asked.content, text: asked.text, tokenCount: asked.token_count };
      return { saved: await appendMessage(tx, userId, sessionId, again), mode: "new" };
    }
    if (input.regenerate) return { saved: await lastUserMessage(tx, userId, sessionId, "regenerate"), mode };
    const edited = input.edit_of ? (await branchPoint(tx, userId, sessionId, input.edit_of, "edit")).turn_seq : undefined;
    return { saved: await appendMessage(tx, userId, sessionId, newMessage(edited)), mode };
  }
}

/**
 * An ordinary new turn's first window, assembled (and its reply's row opened) in the transaction
 * that saved its message (`known`: the session as that transaction left it, with its context's
 * inputs); null for any other turn (the first loads memories first), or when automatic
 * compaction must come first.
 */
export async function planWithMessage(
  tx: Tx,
  h: Pick<TurnHandle, "userId" | "sessionId" | "userMessage" | "caller">,
  mode: TurnMode,
  known?: KnownSession,
): Promise<PlannedWindow | null> {
  if (mode !== "new" || h.userMessage.turn_seq <= 1) return null;
  return loadWindow(tx, h, { checkFirst: true, known, open: (t, ctx) => openReply(t, h.userId, h.sessionId, ctx, false) });
}

/** Opens a reply's row, streaming, with the model its request goes to; returns its id. */
async function openReply(tx: Tx, userId: string, sessionId: string, ctx: SessionContext, restartsTurn: boolean): Promise<string> {
  const reply = await appendMessage(tx, userId, sessionId, {
    role: "assistant",
    content: [],
    text: "",
    tokenCount: 0,
    status: "streaming",
    startsTurn: false,
    model: ctx.model.id,
    restartsTurn,
  });
  return reply.id;
}

/** Runs a whole send and collects its events into the JSON answer. */
export async function sendAndCollect(prepared: PreparedSend): Promise<SendResultJson> {
  const events: SendEvent[] = prepared.kind === "replay" ? prepared.events : [];
  if (prepared.kind === "turn") await prepared.run((e) => events.push(e), { detachFollowUp: true });
  const result: SendResultJson = { user_message: undefined as never, assistant_message: null, status: undefined as never, notices: [] };
  for (const e of events) {
    if (e.event === "user_message" && !result.user_message) result.user_message = e.data;
    else if (e.event === "assistant_message") result.assistant_message = e.data;
    else if (e.event === "status") result.status = e.data;
    else if (e.event === "notice") result.notices.push(e.data);
    else if (e.event === "error") result.error = e.data.error;
  }
  return result;
}

/** `continue`: a drop-in caller's tool_result carries on the turn its tool call paused. */
export type TurnMode = "new" | "retry" | "regenerate" | "continue";

/** The turn to run once its message is saved under the lease `h` holds (`planned`: its first window, already assembled). */
export function turnFor(h: TurnHandle, mode: TurnMode, planned: PlannedWindow | null = null): PreparedSend {
  const attributes = { "threadkeeper.session_id": h.sessionId, "threadkeeper.turn_seq": h.userMessage.turn_seq, "threadkeeper.mode": mode };
  return {
    kind: "turn",
    run: (emit, opts) => inSpan("turn", attributes, () => runTurn(h, emit, mode, planned, opts?.detachFollowUp ?? false)),
  };
}

const STOPPED = new AppError(499, "stopped", "Stopped before the reply was complete.");

async function runTurn(h: TurnHandle, emit: Emit, mode: TurnMode, planned: PlannedWindow | null, detachFollowUp: boolean): Promise<void> {
  const startedAt = performance.now();
  const untrack = trackTurn();
  const client = anthropicClient();
  const stream: StreamState = { id: planned?.replyId ?? null, text: "", dirty: false };
  const flusher = startFlusher(h, stream);
  const live = startLiveDeltas(h, stream);
  const unregister = registerTurn(h.sessionId, h.stop);
  let answered = false;
  let usageBefore: number | null = null;
  let after: SessionContext | null = null;
  // What the automatic checkpoint decides on, gathered as the turn goes (an ordinary turn only):
  // its messages' texts and the reply of the turn before, as the first window held it.
  const turnTexts: { role: string; text: string }[] = [{ role: "user", text: h.userMessage.text }];
  let lastReply: { status: string; text: string } | undefined | null = null;
  let facts: TurnFacts | undefined;
  let settled = false;
  emit({ event: "user_message", data: messageJson(h.userMessage, true) });
  try {
    if (h.userMessage.turn_seq === 1 && mode === "new") await inSpan("memory", {}, () => loadMemories(h, emit));
    for (let round = 0; round < MAX_TOOL_ROUNDS && !h.stop.signal.aborted; round++) {
      const current = (mode === "retry" || mode === "regenerate") && round === 0 ? { turn: h.userMessage.turn_seq, regenerate: mode === "regenerate" } : null;
      // The reply's row is opened with the window's transaction; from then on a failure marks it interrupted.
      const open = async (tx: Tx, ctx: SessionContext) => {
        const id = await openReply(tx, h.userId, h.sessionId, ctx, current?.regenerate ?? false);
        Object.assign(stream, { id, text: "", dirty: false });
        return id;
      };
      const loaded = round === 0 ? planned : null;
      let { ctx, win } = await inSpan("plan", {}, () => planRequest(h, client, emit, { autoCompact: true, open, loaded }));
      if (round === 0 && mode === "new") lastReply = previousReply(win.messages, h.userMessage.turn_seq);
      const replyId = stream.id;
      if (!replyId) throw new Error("unreachable: planning a request that fits opens its reply's row");
      // Where the session stood before this turn's message, for the threshold event.
      usageBefore ??= ((win.selection.calibratedTokens - calibrate(h.userMessage.token_count, ctx.calibration.factor)) / ctx.capacity.capacity) * 100;
      // When each thinking block of the reply started, and how long each took.
      const thinkingStarts = new Map<number, number>();
      const thinkingMs: number[] = [];
      const onBlock = (e: BlockEvent) => {
        emit({ event: "block", data: e });
        if (e.type === "content_block_start" && (e.content_block.type === "thinking" || e.content_block.type === "redacted_thinking")) thinkingStarts.set(e.index, performance.now());
        if (e.type === "content_block_stop" && thinkingStarts.has(e.index)) thinkingMs.push(performance.now() - (thinkingStarts.get(e.index) ?? 0));
        if (e.type !== "content_block_delta" || e.delta.type !== "text_delta" || typeof e.delta.text !== "string") return;
        stream.text += e.delta.text;
        stream.dirty = true;
        emit({ event: "delta", data: { text: e.delta.text } });
      };
      // Claude's count of the request as its reply starts; offline, our calibrated estimate of it.
      const onStart = (usage: LlmUsage | null) =>
        emit({ event: "usage", data: usage ? { ...usage, measured: true } : { input_tokens: win.selection.calibratedTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0, measured: false } });
      let reply: LlmReply | null = null;
      let built: BuiltRequest | null = null;
      const firstRaw = win.rawTokens;
      for (let attempt = 1; !reply; attempt++) {
        built = buildRequest(ctx, win.messages, current, h.caller);
        built.request = await withFileBodies(h.userId, built.request);
        try {
          reply = await callModel(client, built.request, { block: onBlock, start: onStart }, h.stop.signal);
        } catch (err) {
          // Our estimate said it fits but Claude disagrees: shrink by a quarter and retry (FR-004).
          if (!isPromptTooLong(err) || attempt > MAX_OVERFLOW_ATTEMPTS || stream.text !== "") throw err;
          ({ ctx, win } = await recoverFromOverflow(h, emit, overflowTarget(firstRaw, attempt), attempt));
        }
      }
      await flusher.settle();
      // The reply's last tokens reach the other viewers before its saved row is announced.
      await live.flush();
      const sent = built?.request;
      // The thinking remembers the request it answered, so a later request knows whether it may be sent back (lib/context/thinking.ts).
      const final = sent && hasThinking(reply.content) ? { ...reply, content: markThinking(reply.content, requestDigest(sent.system, sent.tools, sent.messages), thinkingMs) } : reply;
      const lastRound = final.stopReason !== "tool_use" || callsCallerTool(final.content, h.caller);
      // What later requests will send of it: a model that drops earlier thinking never reads it again.
      const replyTokens = await countMessageOffThread("assistant", ctx.model.thinking.keepsEarlier ? final.content : withoutThinking(final.content));
      const saved = await inSpan("save", {}, () => withUser(h.userId, async (tx) => {
        const end: MessageEnd = {
          content: final.content,
          text: blocksToText(final.content),
          tokenCount: replyTokens,
          status: "complete",
          usage: final.usage ?? undefined,
          stopReason: final.stopReason,
        };
        // The reply, its call, the calibration it teaches and the session's measured size and
        // totals in one statement, which also returns the session as the status after the turn reads it.
        let row: MessageRow;
        let fresh: { session: SessionRow; tokensToday: number } | null = null;
        if (final.usage) {
          const measured = measuredInput(final.usage);
          const calibration = updateFactor(ctx.calibration, measured, win.rawTokens, ctx.model.tokenizer);
          ({ reply: row, ...fresh } = await finishReply(
            tx,
            h.userId,
            { id: replyId, end },
            {
              sessionId: h.sessionId,
              turnSeq: h.userMessage.turn_seq,
              kind: "chat",
              model: ctx.model.id,
              usage: final.usage,
              estimatedInputTokens: win.selection.calibratedTokens,
              windowStartTurn: ctx.session.window_start_turn,
              capacityTokens: ctx.capacity.capacity,
              cacheBreakpoints: built?.breakpoints ?? 0,
            },
            { measured, raw: win.rawTokens, calibration },
          ));
          ctx.calibration = calibration;
        } else {
          row = await finishMessage(tx, replyId, end);
        }
        turnTexts.push({ role: "assistant", text: row.text });
        if (!lastRound) return row;
        // The status after the turn, read with the writes instead of in a transaction of its own;
        // an ordinary turn with nothing to follow gives its lease back here too.
        after = fresh ? contextAfter(ctx, fresh) : await refreshContext(tx, h.userId, ctx);
        if (mode === "new" && h.userMessage.turn_seq > 1 && lastReply !== null) {
          facts = turnFacts(after.session, turnTexts, lastReply);
          settled = await settleWithReply(tx, h, after, facts);
        }
        return row;
      }));
      // Given back with the reply (settleWithReply): a send waiting here for it goes now.
      if (settled) leaseGivenBack(h.sessionId);
      stream.id = null;
      emit({ event: "assistant_message", data: messageJson(saved, true) });
      h.caller?.onReply(final);
      // A call of the caller's own tool is the caller's to answer: the turn pauses with it.
      if (lastRound) break;
      const answered = await answerToolUses(final.content, built?.request.tools ?? [], {
        userId: h.userId,
        sessionId: h.sessionId,
        windowStartTurn: win.selection.cutoffTurnSeq,
        canvasBudget: canvasBudget(ctx.settings, ctx.capacity),
      });
      turnTexts.push({ role: "user", text: answered.message.text });
      emit({ event: "user_message", data: messageJson(answered.message, true) });
      if (answered.canvas) emit({ event: "canvas", data: answered.canvas });
    }
    answered = !h.stop.signal.aborted;
  } catch (err) {
    const stopped = h.stop.signal.aborted;
    const error = stopped ? STOPPED : llmError(err);
    await flusher.settle();
    if (stream.id) {
      const partial: ContentBlock[] = stream.text ? [{ type: "text", text: stream.text }] : [];
      const errorJson = { code: error.code, message: error.message };
      const partialTokens = partial.length ? await countMessageOffThread("assistant", partial) : 0;
      const kept = await withUser(h.userId, (tx) =>
        finishMessage(tx, stream.id ?? "", {
          content: partial,
          text: stream.text,
          tokenCount: partialTokens,
          status: "interrupted",
          error: errorJson,
        }),
      ).catch((e: unknown) => {
        // Left `streaming`: crash recovery marks it interrupted later; the partial text is already flushed.
        log.error("[threadkeeper] could not mark reply interrupted", e);
        return null;
      });
      if (kept) emit({ event: "assistant_message", data: messageJson(kept, true) });
    }
    // A stop is what the user asked for, not a failure: the kept reply says it was stopped.
    if (!stopped) emit({ event: "error", data: { error: { code: error.code, message: error.message, details: error.details } } });
  } finally {
    unregister();
    await flusher.stop();
    await live.stop();
    // Also after a retried first turn; a session that already has a title keeps it.
    if (answered && h.userMessage.turn_seq === 1) await nameSession(h);
    // The first turn's title call is billed after the reply was saved: read the status afresh then.
    after = await emitStatus(h, emit, usageBefore, answered && h.userMessage.turn_seq > 1 ? after : null);
  }
  countTurn(answered ? "complete" : h.stop.signal.aborted ? "stopped" : "failed", startedAt);
  // The reply is out and the composer is free again; the checkpoint and compaction follow
  // while the lease is still held, so the next send waits for them rather than racing them.
  const followUp = (
    settled ? Promise.resolve({ released: true }) : answered ? afterTurn(h, detachFollowUp ? () => {} : emit, after, facts) : Promise.resolve({ released: false })
  )
    .then(
      ({ released }) => (released ? undefined : release(h.userId, h.sessionId, h.leaseId)),
      () => release(h.userId, h.sessionId, h.leaseId),
    )
    .finally(untrack);
  if (!detachFollowUp) await followUp;
  emit({ event: "done", data: {} });
}

/**
 * The reply that ended the turn before `turnSeq` as the window holds it; undefined when that turn
 * had none; null when the window does not reach back to it (slid out): then it is read.
 */
function previousReply(window: readonly EngineMessage[], turnSeq: number): { status: string; text: string } | undefined | null {
  const previous = window.filter((m) => m.turnSeq === turnSeq - 1);
  if (previous.length === 0) return null;
  const reply = previous.filter((m) => m.role === "assistant").at(-1);
  return reply && { status: reply.status, text: blocksToText(reply.content) };
}

function callsCallerTool(content: readonly ContentBlock[], caller: TurnHandle["caller"]): boolean {
  const names = new Set(caller?.tools.map((t) => t.name));
  return content.some((b) => b.type === "tool_use" && names.has(b.name));
}
