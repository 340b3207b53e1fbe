// What happens around a turn but never fails it: loading memories into a new session,
// naming it, the automatic checkpoint and compaction afterwards, and the status events.
import "server-only";
import { checkpointTags, type TurnFacts } from "@/lib/context/checkpoint-triggers";
import { withUser, type Tx } from "@/lib/db";
import { turnMessages } from "@/lib/db/messages";
import { getSession, releaseTurnLease } from "@/lib/db/sessions";
import { redactSecrets } from "@/lib/redact";
import { log } from "@/lib/log";
import { queueEvent } from "@/lib/webhooks/events";
import { autoCheckpointTx } from "@/lib/operations/checkpoints";
import { compactSession, wantsAutoCompaction, type CompactOutcome } from "@/lib/operations/compact";
import { contextStatus, sessionContext, type SessionContext } from "@/lib/operations/session-context";
import { leaseGivenBack } from "@/lib/operations/lease";
import { loadMemoriesForSession } from "@/lib/operations/memory";
import { titleSession } from "@/lib/operations/titles";
import type { Emit, TurnHandle } from "./turn-handle";

/** A new session starts informed: relevant memories of earlier sessions join its system prompt. */
export async function loadMemories(h: TurnHandle, emit: Emit): Promise<void> {
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
export async function nameSession(h: TurnHandle): Promise<void> {
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
 * compaction once the window reached the threshold (`after`: the context after the turn, when
 * read). Neither ever fails the turn. When no compaction is due, the turn's lease is released
 * with the checkpoint (`released`); otherwise the caller releases it.
 */
export async function afterTurn(h: TurnHandle, emit: Emit, after: SessionContext | null, facts?: TurnFacts): Promise<{ released: boolean }> {
  // The context just read for the status says whether compaction is due; a checkpoint changes nothing in it.
  const compactionDue = !after || wantsAutoCompaction(after);
  let released = false;
  try {
    const checkpoint = await withUser(h.userId, async (tx) => {
      const session = after?.session ?? (await getSession(tx, h.userId, h.sessionId));
      const saved = await autoCheckpointTx(tx, h.userId, session, h.userMessage.turn_seq, facts);
      // Nothing follows: the lease is given back in the same transaction.
      if (!compactionDue) await releaseTurnLease(tx, h.sessionId, h.leaseId);
      return saved;
    });
    released = !compactionDue;
    if (released) leaseGivenBack(h.sessionId);
    if (checkpoint) emit({ event: "checkpoint", data: checkpoint });
  } catch (err) {
    log.error("[threadkeeper] automatic checkpoint failed", err);
  }
  if (!compactionDue) return { released };
  try {
    const outcome = await compactSession(h.userId, h.sessionId, { trigger: "auto", leaseId: h.leaseId });
    reportCompaction(outcome, emit);
  } catch (err) {
    log.error("[threadkeeper] automatic compaction failed", err);
    emit({ event: "notice", data: { kind: "compaction_failed", message: "Automatic compaction failed; the window will slide instead." } });
    await queueEvent(h.userId, "compaction.failed", { session_id: h.sessionId, trigger: "auto", error: errorMessage(err) });
  }
  return { released };
}

/**
 * An ordinary turn's follow-up inside its reply's own transaction, when all it has to do is give
 * the lease back: no compaction due after the turn and no checkpoint to save (decided from the
 * turn's facts, held in memory). True when settled so; otherwise afterTurn follows as usual. The
 * checkpoint itself never joins the reply's transaction: its failure must not cost the reply.
 */
export async function settleWithReply(tx: Tx, h: TurnHandle, after: SessionContext, facts: TurnFacts | undefined): Promise<boolean> {
  if (!facts || wantsAutoCompaction(after) || checkpointTags(facts).length > 0) return false;
  await releaseTurnLease(tx, h.sessionId, h.leaseId);
  return true;
}

export function reportCompaction(outcome: CompactOutcome, emit: Emit): void {
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
  } else if (outcome.kind === "cleared") {
    emit({
      event: "notice",
      data: {
        kind: "tool_results_cleared",
        message: `Old tool results were cleared from Claude's view (about ${Math.round(outcome.saved * outcome.status.calibration_factor).toLocaleString("en-US")} tokens) instead of condensing the conversation; they are still in the chat.`,
      },
    });
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
 * The status after the turn (`known`: the context the turn read after saving its reply, else
 * read here); `usageBefore` (percent of capacity before this turn's message) tells
 * integrations when the turn carried the session across the compaction threshold.
 */
export async function emitStatus(
  h: TurnHandle,
  emit: Emit,
  usageBefore: number | null,
  known: SessionContext | null,
): Promise<SessionContext | null> {
  try {
    const ctx = known ?? (await withUser(h.userId, async (tx) => sessionContext(tx, h.userId, h.sessionId)));
    const status = contextStatus(ctx);
    emit({ event: "status", data: status });
    if (usageBefore !== null && usageBefore < status.threshold_percent && status.usage_percent >= status.threshold_percent) {
      await queueEvent(h.userId, "context.threshold_crossed", {
        session_id: h.sessionId,
        usage_percent: status.usage_percent,
        threshold_percent: status.threshold_percent,
        current_tokens: status.current_tokens,
        capacity_tokens: status.capacity_tokens,
      });
    }
    return ctx;
  } catch (e) {
    log.error("[threadkeeper] status after send failed", e);
    return null;
  }
}

function errorMessage(err: unknown): string {
  return redactSecrets(err instanceof Error ? err.message : String(err)).slice(0, 500);
}

export async function statusOf(userId: string, sessionId: string) {
  return withUser(userId, async (tx) => contextStatus(await sessionContext(tx, userId, sessionId)));
}
