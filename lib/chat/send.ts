import { z } from "zod";
import type { SendEvent, SendResultJson } from "@/lib/api/types";
import { toApiMessages } from "@/lib/context/api-messages";
import { dropSuperseded } from "@/lib/context/retries";
import { blocksToText } from "@/lib/context/text";
import { startsTurn } from "@/lib/context/turns";
import type { ContentBlock } from "@/lib/context/types";
import { withUser } from "@/lib/db";
import { appendMessage, findByIdempotencyKey, flushStreaming, finishMessage, messageJson, turnMessages, type MessageRow } from "@/lib/db/messages";
import { getSession, recordMeasurement } from "@/lib/db/sessions";
import { putCalibration } from "@/lib/db/settings";
import { env } from "@/lib/env";
import { AppError, conflict } from "@/lib/errors";
import { anthropicClient, countTokens, isPromptTooLong, measuredInput, streamReply, type LlmReply, type LlmRequest } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { MAX_OVERFLOW_ATTEMPTS, overflowTarget } from "@/lib/context/compaction/overflow";
import { autoCheckpoint } from "./checkpoints";
import { loadMemoriesForSession } from "./memory";
import { compactSession, type CompactOutcome } from "./compact";
import { titleSession } from "./titles";
import { offlineReply, streamOffline } from "@/lib/llm/offline";
import { updateFactor } from "@/lib/tokens/calibration";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { assembleWindow, contextStatus, loadContext, systemPrompt, type AssembledWindow, type SessionContext } from "./context";
import { acquireLease, release, renewLease } from "./lease";
import { llmError } from "./errors";
import { MAX_TOOL_ROUNDS, runToolUses } from "./tools";

const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
const FLUSH_INTERVAL_MS = 1_000;
/** Ask the API for an exact count once the estimate is this close (fraction of capacity) below the threshold. */
const EXACT_COUNT_MARGIN = 0.05;

export function maxMessageBytes(): number {
  return env().THREADKEEPER_MAX_MESSAGE_BYTES ?? DEFAULT_MAX_MESSAGE_BYTES;
}

export const sendSchema = z
  .object({
    content: z.string().trim().min(1, "must not be empty").optional(),
    /** Answer the last user message again (after an error or interrupted reply). */
    retry: z.literal(true).optional(),
    idempotency_key: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((b) => (b.content === undefined) !== (b.retry === undefined), {
    message: "Send either 'content' or 'retry: true'",
    path: ["content"],
  });

export type SendInput = z.infer<typeof sendSchema>;
export type Emit = (e: SendEvent) => void;

export type PreparedSend =
  | { kind: "replay"; events: SendEvent[] }
  /** `detachFollowUp`: return once the reply is saved; automatic compaction then runs on its own. */
  | { kind: "turn"; run: (emit: Emit, opts?: { detachFollowUp?: boolean }) => Promise<void> };

interface TurnHandle {
  userId: string;
  sessionId: string;
  leaseId: string;
  userMessage: MessageRow;
}

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
  await withUser(userId, (tx) => getSession(tx, userId, sessionId));
  if (input.idempotency_key) {
    const replay = await replayFor(userId, sessionId, input.idempotency_key);
    if (replay) return replay;
  }
  const leaseId = await acquireLease(userId, sessionId);
  try {
    const saved = await withUser(userId, async (tx) => {
      // Checked again under the lease: a concurrent duplicate may have just finished.
      if (input.idempotency_key && (await findByIdempotencyKey(tx, userId, sessionId, input.idempotency_key))) return null;
      if (input.retry) return lastUserMessage(tx, userId, sessionId);
      const content: ContentBlock[] = [{ type: "text", text: input.content ?? "" }];
      return appendMessage(tx, userId, sessionId, {
        role: "user",
        content,
        text: blocksToText(content),
        tokenCount: estimateMessageTokens("user", content),
        status: "complete",
        startsTurn: startsTurn("user", content),
        idempotencyKey: input.idempotency_key,
      });
    });
    if (!saved) {
      await release(userId, sessionId, leaseId);
      const replay = await replayFor(userId, sessionId, input.idempotency_key ?? "");
      if (replay) return replay;
      throw conflict("request_in_progress", "A request with this idempotency key is in progress");
    }
    const handle: TurnHandle = { userId, sessionId, leaseId, userMessage: saved };
    return {
      kind: "turn",
      run: (emit, opts) => runTurn(handle, emit, input.retry === true, opts?.detachFollowUp ?? false),
    };
  } catch (err) {
    await release(userId, sessionId, leaseId);
    throw err;
  }
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

async function runTurn(h: TurnHandle, emit: Emit, retry: boolean, detachFollowUp: boolean): Promise<void> {
  const client = anthropicClient();
  const stream: StreamState = { id: null, text: "", dirty: false };
  const flusher = startFlusher(h, stream);
  let answered = false;
  emit({ event: "user_message", data: messageJson(h.userMessage, true) });
  try {
    if (h.userMessage.turn_seq === 1 && !retry) await loadMemories(h, emit);
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      let { ctx, win } = await planRequest(h, client, emit, { autoCompact: true });
      const currentTurn = retry && round === 0 ? h.userMessage.turn_seq : null;
      const assistant = await withUser(h.userId, (tx) =>
        appendMessage(tx, h.userId, h.sessionId, {
          role: "assistant",
          content: [],
          text: "",
          tokenCount: 0,
          status: "streaming",
          startsTurn: false,
          model: ctx.model.id,
        }),
      );
      Object.assign(stream, { id: assistant.id, text: "", dirty: false });
      const onText = (delta: string) => {
        stream.text += delta;
        stream.dirty = true;
        emit({ event: "delta", data: { text: delta } });
      };
      let reply: LlmReply | null = null;
      const firstRaw = win.rawTokens;
      for (let attempt = 1; !reply; attempt++) {
        const request = {
          model: ctx.model.id,
          system: systemPrompt(ctx.session),
          messages: toApiMessages(dropSuperseded(win.messages, currentTurn)),
          maxTokens: ctx.capacity.reserved,
        };
        try {
          reply = await callModel(client, request, onText);
        } catch (err) {
          // Our estimate said it fits but Claude disagrees: shrink by a quarter and retry (FR-004).
          if (!isPromptTooLong(err) || attempt > MAX_OVERFLOW_ATTEMPTS || stream.text !== "") throw err;
          ({ ctx, win } = await recoverFromOverflow(h, emit, overflowTarget(firstRaw, attempt), attempt));
        }
      }
      await flusher.settle();
      const final = reply;
      const saved = await withUser(h.userId, async (tx) => {
        const row = await finishMessage(tx, assistant.id, {
          content: final.content,
          text: blocksToText(final.content),
          tokenCount: estimateMessageTokens("assistant", final.content),
          status: "complete",
          usage: final.usage ?? undefined,
          stopReason: final.stopReason,
        });
        if (final.usage) await recordCall(tx, h, ctx, measuredInput(final.usage), win.rawTokens);
        return row;
      });
      stream.id = null;
      emit({ event: "assistant_message", data: messageJson(saved, true) });
      if (final.stopReason !== "tool_use") break;
      const results = await runToolUses(final.content);
      const toolMessage = await withUser(h.userId, (tx) =>
        appendMessage(tx, h.userId, h.sessionId, {
          role: "user",
          content: results,
          text: blocksToText(results),
          tokenCount: estimateMessageTokens("user", results),
          status: "complete",
          startsTurn: false,
        }),
      );
      emit({ event: "user_message", data: messageJson(toolMessage, true) });
    }
    answered = true;
  } catch (err) {
    const error = llmError(err);
    await flusher.settle();
    if (stream.id) {
      const partial: ContentBlock[] = stream.text ? [{ type: "text", text: stream.text }] : [];
      const errorJson = { code: error.code, message: error.message };
      const kept = await withUser(h.userId, (tx) =>
        finishMessage(tx, stream.id ?? "", {
          content: partial,
          text: stream.text,
          tokenCount: partial.length ? estimateMessageTokens("assistant", partial) : 0,
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
    emit({ event: "error", data: { error: { code: error.code, message: error.message, details: error.details } } });
  } finally {
    await flusher.stop();
    // Also after a retried first turn; a session that already has a title keeps it.
    if (answered && h.userMessage.turn_seq === 1) await nameSession(h);
    await emitStatus(h, emit);
  }
  // The reply is out and the composer is free again; the checkpoint and compaction follow
  // while the lease is still held, so the next send waits for them rather than racing them.
  const followUp = (answered ? afterTurn(h, detachFollowUp ? () => {} : emit) : Promise.resolve()).finally(() =>
    release(h.userId, h.sessionId, h.leaseId),
  );
  if (!detachFollowUp) await followUp;
  emit({ event: "done", data: {} });
}

async function emitStatus(h: TurnHandle, emit: Emit): Promise<void> {
  try {
    emit({ event: "status", data: await statusOf(h.userId, h.sessionId) });
  } catch (e) {
    log.error("[threadkeeper] status after send failed", e);
  }
}

async function callModel(
  client: ReturnType<typeof anthropicClient>,
  request: LlmRequest,
  onText: (delta: string) => void,
): Promise<LlmReply> {
  if (client) return streamReply(client, request, onText);
  const { text } = offlineReply({ messages: request.messages, system: request.system, model: request.model });
  for await (const chunk of streamOffline(text, env().THREADKEEPER_OFFLINE_DELAY_MS ?? 15)) onText(chunk);
  return { content: [{ type: "text", text }], usage: null, stopReason: "end_turn" };
}

/** A new session starts informed: relevant memories of earlier sessions join its system prompt. */
async function loadMemories(h: TurnHandle, emit: Emit): Promise<void> {
  try {
    const { loaded, tokens } = await loadMemoriesForSession(h.userId, h.sessionId, h.userMessage.text);
    if (loaded.length > 0) emit({ event: "memories", data: { loaded, tokens } });
  } catch (err) {
    // Memory is a help, never a gate: the turn goes on without it.
    log.error("[threadkeeper] loading memories failed", err);
    emit({ event: "notice", data: { kind: "memory_unavailable", message: "Memories of earlier sessions could not be loaded." } });
  }
}

/** The first turn names the session (a failure there never fails the turn). */
async function nameSession(h: TurnHandle): Promise<void> {
  try {
    const { session, reply } = await withUser(h.userId, async (tx) => ({
      session: await getSession(tx, h.userId, h.sessionId),
      reply: await turnMessages(tx, h.sessionId, 1),
    }));
    if (session.title_source !== "default") return;
    const text = reply.filter((m) => m.role === "assistant").map((m) => m.text).join("\n");
    await titleSession(h.userId, h.sessionId, h.userMessage.text, text);
  } catch (err) {
    log.error("[threadkeeper] naming the session failed", err);
  }
}

/**
 * After a completed turn: an automatic checkpoint when the turn mattered, then automatic
 * compaction once the window reached the threshold. Neither ever fails the turn.
 */
async function afterTurn(h: TurnHandle, emit: Emit): Promise<void> {
  try {
    const checkpoint = await autoCheckpoint(h.userId, h.sessionId, h.userMessage.turn_seq);
    if (checkpoint) emit({ event: "checkpoint", data: checkpoint });
  } catch (err) {
    log.error("[threadkeeper] automatic checkpoint failed", err);
  }
  try {
    const outcome = await compactSession(h.userId, h.sessionId, { trigger: "auto", leaseId: h.leaseId });
    reportCompaction(outcome, emit);
  } catch (err) {
    log.error("[threadkeeper] automatic compaction failed", err);
    emit({ event: "notice", data: { kind: "compaction_failed", message: "Automatic compaction failed; the window will slide instead." } });
  }
}

function reportCompaction(outcome: CompactOutcome, emit: Emit): void {
  if (outcome.kind === "compacted") {
    const c = outcome.compaction;
    emit({ event: "compaction", data: c });
    if (c.fallback_reason) {
      emit({
        event: "notice",
        data: { kind: "compaction_fallback", message: `${c.method === "sliding" ? "Turns slid out" : "Extractive summary used"}: ${c.fallback_reason}` },
      });
    }
    emit({ event: "status", data: outcome.status });
  } else if (outcome.reason === "thrashing") {
    emit({
      event: "notice",
      data: {
        kind: "compaction_warning",
        message:
          "The window refilled within 3 turns three times in a row, so automatic compaction is paused; older turns slide out instead. Consider shorter messages, /compact with instructions, or a larger-window model.",
      },
    });
  }
}

/**
 * "Prompt is too long": bring the request down to `targetRaw` tokens, by compaction when it
 * can, else by sliding whole turns out, and log the attempt. The user's message stays.
 */
async function recoverFromOverflow(
  h: TurnHandle,
  emit: Emit,
  targetRaw: number,
  attempt: number,
): Promise<{ ctx: SessionContext; win: AssembledWindow }> {
  log.warn(`[threadkeeper] prompt too long in session ${h.sessionId}; recovery attempt ${attempt}, target ${targetRaw} raw tokens`);
  try {
    const outcome = await compactSession(h.userId, h.sessionId, { trigger: "error_recovery", leaseId: h.leaseId, targetRaw });
    reportCompaction(outcome, emit);
  } catch (err) {
    log.error("[threadkeeper] compaction during overflow recovery failed; sliding instead", err);
  }
  emit({
    event: "notice",
    data: {
      kind: "overflow_recovery",
      message: `Claude said the conversation was too long for its window; reduced it by 25 % and retried (attempt ${attempt} of ${MAX_OVERFLOW_ATTEMPTS}).`,
    },
  });
  return planRequest(h, anthropicClient(), emit, { autoCompact: false, targetRaw });
}

/**
 * Assembles the window for the next request. Near the threshold the API's exact count
 * replaces our estimate (and calibrates it), and the window slides again if that is needed
 * to keep the request under capacity.
 */
async function planRequest(
  h: TurnHandle,
  client: ReturnType<typeof anthropicClient>,
  emit: Emit,
  opts: { autoCompact: boolean; targetRaw?: number },
): Promise<{ ctx: SessionContext; win: AssembledWindow }> {
  if (opts.autoCompact) {
    // Also checked before each request, for when the message itself crossed the threshold.
    reportCompaction(await compactSession(h.userId, h.sessionId, { trigger: "auto", leaseId: h.leaseId }), emit);
  }
  let { ctx, win } = await withUser(h.userId, async (tx) => {
    const ctx = await loadContext(tx, h.userId, await getSession(tx, h.userId, h.sessionId));
    const factor = ctx.calibration.factor;
    const capacity = opts.targetRaw === undefined ? ctx.capacity.capacity : Math.floor(opts.targetRaw * factor);
    return { ctx, win: await assembleWindow(tx, ctx, factor, capacity) };
  });
  let dropped = win.selection.droppedTurnSeqs.length;
  const nearThreshold =
    win.selection.calibratedTokens >= (ctx.settings.compaction_threshold - EXACT_COUNT_MARGIN) * ctx.capacity.capacity;
  if (client && nearThreshold && win.rawTokens > 0) {
    const exact = await countTokens(client, {
      model: ctx.model.id,
      system: systemPrompt(ctx.session),
      messages: toApiMessages(win.messages),
    });
    const estimated = win.rawTokens;
    ({ ctx, win } = await withUser(h.userId, async (tx) => {
      await recordCall(tx, h, ctx, exact, estimated);
      if (exact <= ctx.capacity.capacity) return { ctx, win };
      const fresh = await loadContext(tx, h.userId, await getSession(tx, h.userId, h.sessionId));
      return { ctx: fresh, win: await assembleWindow(tx, fresh, exact / estimated) };
    }));
    if (exact > ctx.capacity.capacity) dropped += win.selection.droppedTurnSeqs.length;
  }
  if (dropped > 0) {
    emit({
      event: "notice",
      data: {
        kind: "window_slid",
        message: `${dropped} older turn${dropped === 1 ? "" : "s"} slid out of Claude's view to stay within the context window.`,
      },
    });
  }
  if (win.selection.overCapacity) {
    throw new AppError(413, "context_overflow", "This message is too large for the model's context window even on its own.", {
      capacity_tokens: ctx.capacity.capacity,
      request_tokens: win.selection.calibratedTokens,
    });
  }
  return { ctx, win };
}

/** Stores what the API measured for a request and refines the model's calibration factor. */
async function recordCall(tx: Parameters<Parameters<typeof withUser>[1]>[0], h: TurnHandle, ctx: SessionContext, measured: number, raw: number) {
  await recordMeasurement(tx, h.sessionId, measured, raw);
  const next = updateFactor(ctx.calibration, measured, raw, ctx.model.tokenizer);
  await putCalibration(tx, h.userId, ctx.model.id, next);
  ctx.calibration = next;
}

async function statusOf(userId: string, sessionId: string) {
  return withUser(userId, async (tx) => contextStatus(await loadContext(tx, userId, await getSession(tx, userId, sessionId))));
}

async function lastUserMessage(tx: Parameters<Parameters<typeof withUser>[1]>[0], userId: string, sessionId: string) {
  const session = await getSession(tx, userId, sessionId);
  const turn = await turnMessages(tx, sessionId, session.last_turn_seq);
  const last = turn[turn.length - 1];
  const first = turn[0];
  if (!first || first.role !== "user" || (last && last.role === "assistant" && last.status === "complete")) {
    throw conflict("nothing_to_retry", "The last message already has a complete reply");
  }
  return first;
}

/** The saved outcome of an earlier request with this idempotency key, replayed as events. */
async function replayFor(userId: string, sessionId: string, key: string): Promise<PreparedSend | null> {
  const found = await withUser(userId, async (tx) => {
    const user = await findByIdempotencyKey(tx, userId, sessionId, key);
    if (!user) return null;
    return { user, turn: await turnMessages(tx, sessionId, user.turn_seq) };
  });
  if (!found) return null;
  const replies = found.turn.filter((m) => m.seq > found.user.seq);
  if (replies.some((m) => m.status === "streaming")) {
    throw conflict("request_in_progress", "A request with this idempotency key is still being answered");
  }
  const events: SendEvent[] = [{ event: "user_message", data: messageJson(found.user, true) }];
  for (const m of replies) {
    events.push({ event: m.role === "assistant" ? "assistant_message" : "user_message", data: messageJson(m, true) });
  }
  events.push({ event: "notice", data: { kind: "replayed", message: "Replayed the saved result of this idempotency key." } });
  events.push({ event: "status", data: await statusOf(userId, sessionId) }, { event: "done", data: {} });
  return { kind: "replay", events };
}

interface StreamState {
  id: string | null;
  text: string;
  dirty: boolean;
}

/**
 * Saves the partial reply at least every second, so a crash loses at most about a second
 * of it, and keeps the turn lease alive meanwhile. Writes are chained, never concurrent.
 */
function startFlusher(h: TurnHandle, stream: StreamState) {
  let chain: Promise<void> = Promise.resolve();
  const tick = () => {
    chain = chain
      .then(() =>
        withUser(h.userId, async (tx) => {
          if (stream.id && stream.dirty) {
            stream.dirty = false;
            await flushStreaming(tx, stream.id, [{ type: "text", text: stream.text }], stream.text);
          }
          await renewLease(tx, h.sessionId, h.leaseId);
        }),
      )
      .catch((e: unknown) => log.error("[threadkeeper] flush failed; retrying next second", e));
  };
  const timer = setInterval(tick, FLUSH_INTERVAL_MS);
  return {
    /** Waits for a flush in flight, so the final write cannot be overtaken by it. */
    settle: () => chain,
    stop: async () => {
      clearInterval(timer);
      await chain;
    },
  };
}
