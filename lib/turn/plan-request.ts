// The request for the next reply: the window to send, assembled under capacity (sliding,
// compacting, or recovering from "prompt is too long"), and the calibration it teaches us.
import "server-only";
import { carriedFiles } from "@/lib/context/files";
import { sessionUses } from "@/lib/db/files";
import { MAX_OVERFLOW_ATTEMPTS } from "@/lib/context/compaction/overflow";
import { withUser, type Tx } from "@/lib/db";
import { recordMeasurement, type SessionRow } from "@/lib/db/sessions";
import { putCalibration, type ContextInputs } from "@/lib/db/settings";
import { AppError } from "@/lib/errors";
import { anthropicClient, countTokens } from "@/lib/llm/client";
import { redactSecrets } from "@/lib/redact";
import { log } from "@/lib/log";
import { queueEvent } from "@/lib/webhooks/events";
import { updateFactor } from "@/lib/tokens/calibration";
import { estimateToolsTokens } from "@/lib/tokens/tokenizer";
import { reportCompaction } from "./after-turn";
import { canvasBudget, canvasForRequest } from "@/lib/operations/canvas";
import { compactSession, wantsAutoCompaction } from "@/lib/operations/compact";
import { assembleWindow, loadContext, sessionContext, type AssembledWindow, type SessionContext } from "@/lib/operations/session-context";
import { buildRequest, withFileBodies } from "./request";
import type { Emit, TurnHandle } from "./turn-handle";

/** Ask the API for an exact count once the estimate is this close (fraction of capacity) below the threshold. */
const EXACT_COUNT_MARGIN = 0.05;

/**
 * "Prompt is too long": bring the request down to `targetRaw` tokens, by compaction when it
 * can, else by sliding whole turns out, and log the attempt. The user's message stays.
 */
export async function recoverFromOverflow(
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
    await queueEvent(h.userId, "compaction.failed", { session_id: h.sessionId, trigger: "error_recovery", error: redactSecrets(String(err)).slice(0, 500) });
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

interface PlanOptions {
  /** Recovery's target for the whole request, in raw tokens. */
  targetRaw?: number;
  /** Runs in the transaction that assembled a window that fits: opens the reply's row and returns its id. */
  open?: (tx: Tx, ctx: SessionContext) => Promise<string>;
}

/** A session row with its context's inputs, as the statement that wrote it returned them. */
export interface KnownSession {
  session: SessionRow;
  inputs: ContextInputs;
}

export interface PlannedWindow {
  ctx: SessionContext;
  win: AssembledWindow;
  /** The reply's row, when `open` ran. */
  replyId?: string;
}

/**
 * Reads the session (unless `known`) and assembles its window in the caller's transaction. `checkFirst`: null
 * instead when automatic compaction is due, so the turns it would condense are condensed
 * rather than slid out.
 */
export async function loadWindow(
  tx: Tx,
  h: Pick<TurnHandle, "userId" | "sessionId" | "userMessage" | "caller">,
  opts: PlanOptions & { checkFirst: boolean; known?: KnownSession },
): Promise<PlannedWindow | null> {
  const ctx = opts.known
    ? await loadContext(tx, h.userId, opts.known.session, opts.known.inputs)
    : await sessionContext(tx, h.userId, h.sessionId);
  if (opts.checkFirst && wantsAutoCompaction(ctx)) return null;
  // The user's own canvas changes since Claude's last reply (made after the message before this turn's).
  ctx.canvasText = await canvasForRequest(tx, ctx.session, canvasBudget(ctx.settings, ctx.capacity), h.userMessage.seq - 1);
  if (h.caller) ctx.callerToolsRaw = estimateToolsTokens(h.caller.tools);
  // A message that brought files recorded them after the session row in hand was read.
  if (carriedFiles(h.userMessage.content).some((c) => !ctx.files.some((f) => f.file_id === c.file_id))) ctx.files = await sessionUses(tx, h.sessionId);
  const factor = ctx.calibration.factor;
  const capacity = opts.targetRaw === undefined ? undefined : Math.floor(opts.targetRaw * factor);
  const win = await assembleWindow(tx, ctx, factor, capacity);
  const replyId = opts.open && !win.selection.overCapacity ? await opts.open(tx, ctx) : undefined;
  return { ctx, win, replyId };
}

/**
 * Assembles the window for the next request. Near the threshold the API's exact count
 * replaces our estimate (and calibrates it), and the window slides again if that is needed
 * to keep the request under capacity.
 */
export async function planRequest(
  h: TurnHandle,
  client: ReturnType<typeof anthropicClient>,
  emit: Emit,
  opts: PlanOptions & {
    autoCompact: boolean;
    /** The window already assembled (and its reply opened) in the transaction that saved the message. */
    loaded?: PlannedWindow | null;
  },
): Promise<PlannedWindow> {
  // Also checked before each request, for when the message itself crossed the threshold.
  let loaded = opts.loaded ?? (await withUser(h.userId, (tx) => loadWindow(tx, h, { ...opts, checkFirst: opts.autoCompact })));
  if (!loaded) {
    reportCompaction(await compactSession(h.userId, h.sessionId, { trigger: "auto", leaseId: h.leaseId }), emit);
    loaded = await withUser(h.userId, (tx) => loadWindow(tx, h, { ...opts, checkFirst: false }));
  }
  if (!loaded) throw new Error("unreachable: a load without the check always assembles the window");
  const replyId = loaded.replyId;
  let { ctx, win } = loaded;
  let dropped = win.selection.droppedTurnSeqs.length;
  const nearThreshold =
    win.selection.calibratedTokens >= (ctx.settings.compaction_threshold - EXACT_COUNT_MARGIN) * ctx.capacity.capacity;
  if (client && nearThreshold && win.rawTokens > 0) {
    const exact = await countTokens(client, await withFileBodies(h.userId, buildRequest(ctx, win.messages, null, h.caller).request));
    const estimated = win.rawTokens;
    ({ ctx, win } = await withUser(h.userId, async (tx) => {
      await recordMeasured(tx, h, ctx, exact, estimated);
      if (exact <= ctx.capacity.capacity) return { ctx, win };
      const fresh = await sessionContext(tx, h.userId, h.sessionId);
      fresh.canvasText = ctx.canvasText;
      fresh.callerToolsRaw = ctx.callerToolsRaw;
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
  return { ctx, win, replyId };
}

/** Stores what the API measured for a request and refines the model's calibration factor. */
export async function recordMeasured(tx: Tx, h: TurnHandle, ctx: SessionContext, measured: number, raw: number) {
  await recordMeasurement(tx, h.sessionId, measured, raw);
  const next = updateFactor(ctx.calibration, measured, raw, ctx.model.tokenizer);
  await putCalibration(tx, h.userId, ctx.model.id, next);
  ctx.calibration = next;
}
