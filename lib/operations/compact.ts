import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import type { CompactionJson, CompactionTrigger, ContextStatusJson } from "@/lib/contract";
import {
  compactionBudgets,
  detailsBudget,
  extractMustKeepSliced,
  isThrashing,
  planCompaction,
  toTranscriptTurns,
  verifySummary,
} from "@/lib/context/compaction";
import { autoCompactThresholdPercent, cacheBreak, isCacheWarm } from "@/lib/context/prompt-cache";
import { redactSecrets } from "@/lib/redact";
import { dropReplaced } from "@/lib/context/retries";
import { groupTurns, type Turn } from "@/lib/context/turns";
import { withUser } from "@/lib/db";
import {
  checkManualCooldown,
  claimManualCooldown,
  getCompaction,
  insertCompaction,
  installSummary,
  recentAutoTurns,
  recordCompactionOutcome,
  setCompactionStatus,
} from "@/lib/db/compactions";
import { tailMessages } from "@/lib/db/messages";
import { getSession, type SessionRow } from "@/lib/db/sessions";
import { conflict } from "@/lib/errors";
import { recordLlmCall } from "@/lib/db/llm-calls";
import { costUsd, requireModel } from "@/lib/models";
import { log } from "@/lib/log";
import { countCompaction } from "@/lib/metrics";
import { inSpan } from "@/lib/tracing";
import { calibrate } from "@/lib/tokens/calibration";
import { estimateSystemTokens, estimateTextTokens } from "@/lib/tokens/tokenizer";
import { contextStatus, sessionContext, stableRawTokens, summaryBlock, type SessionContext } from "./session-context";
import { compactionJson } from "./compaction-log";
import { templateBody, writeSummary } from "./summary-writer";
import { preCompactionCheckpoint } from "./checkpoints";
import { rememberFacts } from "./facts";
import { rememberSummary } from "./memory";
import { acquireLease, release } from "./lease";
import { clearOldToolResults } from "./clear-tool-results";
import { compactSchema } from "@/lib/contract/requests";

const MANUAL_COOLDOWN_S = 30;
/**
 * A /compact that would condense less than this share of what Claude is sent is refused: a
 * summary for a few percent dims turns for nothing and spends a summarizer call.
 */
export const MIN_MANUAL_GAIN = 0.1;
const PREVIEW_CHARS = 280;

export interface CompactOptions {
  trigger: CompactionTrigger;
  force?: boolean;
  instructions?: string | null;
  /** A preset name or template id, instead of the session's setting. */
  template?: string | null;
  /** The caller already holds the session's lease (inside a turn). */
  leaseId?: string;
  /** Overflow recovery: bring the whole request down to this many raw tokens. */
  targetRaw?: number;
}

export type CompactOutcome =
  | { kind: "compacted"; compaction: CompactionJson; status: ContextStatusJson }
  | { kind: "skipped"; reason: "below_threshold" | "nothing_to_compact" | "thrashing" | "disabled"; status: ContextStatusJson }
  /** A manual compaction that would condense only `tokens` (`percent` of what Claude is sent). */
  | { kind: "skipped"; reason: "little_gain"; tokens: number; percent: number; status: ContextStatusJson }
  /** Clearing old tool results brought the window under the threshold: nothing was condensed. */
  | { kind: "cleared"; saved: number; status: ContextStatusJson };

/**
 * Condenses the turns since the last summary (plus that summary) into a new, verified
 * summary, under the session's lease so no turn or second compaction interleaves. The
 * expensive part (the summarizer call) runs outside any transaction; the new summary is
 * installed in one transaction at the end, so a crash leaves the previous state intact.
 */
export async function compactSession(userId: string, sessionId: string, opts: CompactOptions): Promise<CompactOutcome> {
  const started = performance.now();
  // A 404 before waiting for a lease; a caller holding the lease has found the session already.
  if (!opts.leaseId || opts.trigger === "manual") {
    await withUser(userId, async (tx) => {
      await getSession(tx, userId, sessionId);
      if (opts.trigger === "manual") await checkManualCooldown(tx, sessionId, MANUAL_COOLDOWN_S);
    });
  }
  const leaseId = opts.leaseId ?? (await acquireLease(userId, sessionId));
  try {
    return await inSpan("compaction", { "threadkeeper.session_id": sessionId, "threadkeeper.trigger": opts.trigger }, () =>
      compactHoldingLease(userId, sessionId, opts, started),
    );
  } finally {
    if (!opts.leaseId) await release(userId, sessionId, leaseId);
  }
}

async function compactHoldingLease(
  userId: string,
  sessionId: string,
  opts: CompactOptions,
  started: number,
): Promise<CompactOutcome> {
  const first = await withUser(userId, async (tx) => {
    const ctx = await sessionContext(tx, userId, sessionId);
    return { ctx, status: contextStatus(ctx) };
  });
  const { ctx, status } = first;
  const session = ctx.session;
  // Checked before reading any history, because this runs after every turn.
  if (opts.trigger === "auto" && !ctx.settings.auto_compact) return { kind: "skipped", reason: "disabled", status };
  if (opts.trigger !== "error_recovery" && !opts.force && status.usage_percent < thresholdFor(opts.trigger, status, session)) {
    return { kind: "skipped", reason: "below_threshold", status };
  }
  if (opts.trigger === "auto" && !opts.force) {
    const cleared = await clearOldToolResults(userId, sessionId);
    if (cleared && cleared.status.usage_percent < thresholdFor(opts.trigger, cleared.status, session)) {
      return { kind: "cleared", saved: cleared.saved, status: cleared.status };
    }
  }
  const state = await withUser(userId, async (tx) => {
    const templateId = opts.template ?? ctx.settings.compaction_template;
    return {
      template: await templateBody(tx, userId, templateId),
      templateId,
      // Everything after the last summary, including turns that slid out without being summarized.
      messages: await tailMessages(tx, sessionId, session.summary_through_turn + 1),
      autoTurns: opts.trigger === "auto" ? await recentAutoTurns(tx, sessionId, 3) : [],
    };
  });
  if (opts.trigger === "auto" && isThrashing(state.autoTurns, session.last_turn_seq)) {
    return { kind: "skipped", reason: "thrashing", status };
  }

  const budgets = compactionBudgets({
    capacity: ctx.capacity.capacity,
    threshold: ctx.settings.compaction_threshold,
    target: ctx.settings.compaction_target,
    fixedTokens: stableRawTokens(ctx),
    pinnedTokens: session.pinned_tokens,
    calibration: ctx.calibration.factor,
  });
  const keepBudget =
    opts.targetRaw === undefined
      ? budgets.keepBudget
      : Math.max(0, opts.targetRaw - session.system_tokens - session.memory_tokens - session.pinned_tokens - budgets.summaryMaxTokens);
  // Earlier versions (edited turns, regenerated replies) are not part of the story to condense.
  const turns = groupTurns(dropReplaced(state.messages));
  const plan = planCompaction({ turns, keepBudget: opts.trigger === "manual" ? manualKeepBudget(turns, keepBudget) : keepBudget });
  if (!plan) return { kind: "skipped", reason: "nothing_to_compact", status };
  if (opts.trigger === "manual") {
    const tokens = calibrate(plan.condensedTokens, ctx.calibration.factor);
    const share = tokens / Math.max(1, status.current_tokens);
    if (share < MIN_MANUAL_GAIN) return { kind: "skipped", reason: "little_gain", tokens, percent: Math.round(share * 1000) / 10, status };
  }
  // Claimed only once there is something to do, so a refused /compact costs no cooldown.
  if (opts.trigger === "manual") await withUser(userId, (tx) => claimManualCooldown(tx, sessionId, MANUAL_COOLDOWN_S));

  // The state before the window changes stays one click away.
  await preCompactionCheckpoint(userId, sessionId);
  const transcript = toTranscriptTurns(plan.condense);
  const items = await extractMustKeepSliced(transcript, redactSecrets(session.summary_text));
  const summaryModel = requireModel(ctx.settings.summary_model);
  const written = await writeSummary(ctx, {
    model: summaryModel.id,
    template: state.template,
    transcript,
    items,
    instructions: opts.instructions ?? null,
    maxTokens: budgets.summaryMaxTokens,
  });
  const replacedTokens = session.summary_tokens + plan.condensedTokens;
  const verified = verifySummary(written.text, items, {
    detailsBudget: detailsBudget(replacedTokens, estimateTextTokens(written.text)),
    countTokens: estimateTextTokens,
  });
  const summaryTokens = estimateSystemTokens(summaryBlock(verified.text));
  // A summary that does not shrink what it replaces is no use: the turns slide out instead
  // (they stay after the old summary's pointer, so a later compaction can still condense them).
  const method = summaryTokens < replacedTokens ? written.method : "sliding";

  const applied = await withUser(userId, async (tx) => {
    const now = await getSession(tx, userId, sessionId, true);
    if (now.summary_id !== session.summary_id) throw conflict("compaction_conflict", "The session changed during compaction");
    const fromTurn = plan.condense[0].turnSeq;
    const row = await insertCompaction(tx, userId, {
      session_id: sessionId,
      trigger: opts.trigger,
      method,
      from_turn: fromTurn,
      through_turn: plan.throughTurn,
      at_seq: now.next_seq - 1,
      at_turn: now.last_turn_seq,
      prev_compaction_id: now.summary_id,
      prev_window_start_turn: now.window_start_turn,
      summary: method === "sliding" ? null : verified.text,
      summary_tokens: method === "sliding" ? 0 : summaryTokens,
      summary_preview: method === "sliding" ? "" : preview(verified.text),
      items_total: verified.itemsTotal,
      retention_rate: method === "sliding" ? 0 : verified.retentionRate,
      preserved_items: verified.appended,
      omitted_items: verified.omitted,
      pre_tokens: status.current_tokens,
      post_tokens: status.current_tokens,
      reduction_percent: 0,
      messages_condensed: plan.condense.reduce((n, t) => n + t.messages.length, 0),
      model: written.method === "llm" ? summaryModel.id : null,
      template: state.templateId,
      instructions: opts.instructions ?? null,
      duration_ms: 0,
      cost_usd: written.usage ? costUsd(summaryModel, written.usage) : 0,
      usage: written.usage,
      fallback_reason: method === "sliding" ? "the summary would not have been smaller than what it replaces" : written.fallbackReason,
    });
    if (written.usage) {
      await recordLlmCall(tx, userId, { sessionId, turnSeq: now.last_turn_seq, kind: "summary", model: summaryModel.id, usage: written.usage });
    }
    const windowStartTurn = Math.max(plan.throughTurn + 1, now.window_start_turn);
    if (method === "sliding") {
      await installSummary(tx, sessionId, {
        summaryId: now.summary_id,
        text: now.summary_text,
        tokens: now.summary_tokens,
        throughTurn: now.summary_through_turn,
        windowStartTurn,
      });
    } else {
      if (now.summary_id) await setCompactionStatus(tx, now.summary_id, "superseded");
      await installSummary(tx, sessionId, {
        summaryId: row.id,
        text: verified.text,
        tokens: summaryTokens,
        throughTurn: plan.throughTurn,
        windowStartTurn,
      });
    }
    const after = contextStatus(await sessionContext(tx, userId, sessionId));
    const durationMs = Math.round(performance.now() - started);
    const reduction = status.current_tokens > 0 ? (1 - after.current_tokens / status.current_tokens) * 100 : 0;
    await audit(tx, userId, {
      action: "compaction.applied",
      target: { type: "compaction", id: row.id },
      metadata: { session_id: sessionId, trigger: opts.trigger, method, pre_tokens: status.current_tokens, post_tokens: after.current_tokens },
    });
    const cache = cacheBreak({
      lastRequestAt: session.measured_at,
      now: new Date(),
      stableTokens: calibrate(stableRawTokens(ctx), ctx.calibration.factor),
      preTokens: status.current_tokens,
      postTokens: after.current_tokens,
      price: ctx.model.price,
    });
    await recordCompactionOutcome(tx, row.id, {
      postTokens: after.current_tokens,
      reductionPercent: Math.round(reduction * 10) / 10,
      durationMs,
      cacheBreak: cache,
    });
    return { row: await getCompaction(tx, userId, row.id), status: after };
  });
  if (applied.row.summary) {
    // Every compaction refreshes the session's memory; a failure here never undoes the compaction.
    await rememberSummary(userId, session, applied.row.summary, "compaction", transcript).catch((err: unknown) =>
      log.error("[threadkeeper] saving the compaction's memory failed", err),
    );
    // The condensed turns' facts, beside the summary: what a later question is likely to ask.
    await rememberFacts(userId, session, transcript, "compaction").catch((err: unknown) =>
      log.error("[threadkeeper] saving the compaction's facts failed", err),
    );
  }
  countCompaction(applied.row.method, applied.row.trigger);
  log.info(
    `[threadkeeper] compaction ${applied.row.trigger}/${applied.row.method} session=${sessionId} ` +
      `${applied.row.pre_tokens}→${applied.row.post_tokens} tokens in ${applied.row.duration_ms} ms`,
  );
  return { kind: "compacted", compaction: compactionJson(applied.row, true), status: applied.status };
}

/**
 * Automatic compaction runs at the threshold, or earlier once the prompt cache has gone cold
 * (the session was idle past its lifetime), when condensing throws nothing cached away.
 * Sessions never measured (offline) have no cache to judge and keep the plain threshold.
 */
/** Whether automatic compaction would act now: a turn checks this before asking compactSession to. */
export function wantsAutoCompaction(ctx: SessionContext): boolean {
  const status = contextStatus(ctx);
  return ctx.settings.auto_compact && status.usage_percent >= thresholdFor("auto", status, ctx.session);
}

function thresholdFor(trigger: CompactionTrigger, status: ContextStatusJson, session: SessionRow): number {
  if (trigger !== "auto" || session.measured_at === null) return status.threshold_percent;
  return autoCompactThresholdPercent(status.threshold_percent, isCacheWarm(session.measured_at, new Date()));
}

/**
 * Someone who types /compact wants older turns condensed now, even when the window would
 * still hold them all: keep at most a quarter of the turns' tokens verbatim.
 */
function manualKeepBudget(turns: readonly Turn[], keepBudget: number): number {
  const total = turns.reduce((n, t) => n + t.tokens, 0);
  return Math.min(keepBudget, Math.floor(total / 4));
}

function preview(text: string): string {
  const flat = text.replace(/^#+\s.*$/gm, "").replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

/** Manual compaction (route): reasons to skip become errors the user can read. */
export async function compactNow(
  userId: string,
  input: z.infer<typeof compactSchema>,
): Promise<{ compaction: CompactionJson; status: ContextStatusJson }> {
  const outcome = await compactSession(userId, input.session_id, {
    trigger: "manual",
    force: input.force,
    // Stored with the compaction and shown on its divider: typed by hand, it may quote a secret.
    instructions: redactSecrets(input.instructions ?? null),
    template: input.preset ?? input.template_id ?? null,
  });
  // Exactly the documented answer: the outcome's own `kind` is internal.
  if (outcome.kind === "compacted") return { compaction: outcome.compaction, status: outcome.status };
  if (outcome.kind === "skipped" && outcome.reason === "below_threshold") {
    throw conflict(
      "below_threshold",
      `Usage is ${outcome.status.usage_percent}% of capacity, below the ${outcome.status.threshold_percent}% threshold; use force to compact anyway.`,
      { usage_percent: outcome.status.usage_percent, threshold_percent: outcome.status.threshold_percent },
    );
  }
  if (outcome.kind === "skipped" && outcome.reason === "little_gain") {
    throw conflict(
      "little_gain",
      `Only ${outcome.tokens.toLocaleString("en-US")} tokens (${outcome.percent}% of what Claude is sent) could be condensed: not worth a summary yet.`,
      { tokens: outcome.tokens, percent: outcome.percent, min_percent: MIN_MANUAL_GAIN * 100 },
    );
  }
  throw conflict("nothing_to_compact", "There are no older unprotected turns to condense yet.");
}
