// The compaction log as the API shows it, and undo.
import "server-only";
import type { CompactionJson, ContextStatusJson } from "@/lib/contract";
import { audit } from "@/lib/audit/record";
import { withUser } from "@/lib/db";
import { getCompaction, installSummary, listCompactions, setCompactionStatus, type CompactionRow } from "@/lib/db/compactions";
import { getSession } from "@/lib/db/sessions";
import { conflict } from "@/lib/errors";
import { contextStatus, sessionContext } from "./session-context";
import { acquireLease, release } from "./lease";

export async function compactionHistory(userId: string, sessionId: string): Promise<CompactionJson[]> {
  return withUser(userId, async (tx) => {
    await getSession(tx, userId, sessionId);
    const rows = await listCompactions(tx, userId, sessionId);
    const latest = rows.at(-1);
    return rows.map((r) => compactionJson(r, r === latest));
  });
}

/** Restores the state before the session's latest compaction, if it still fits the window. */
export async function undoCompaction(
  userId: string,
  compactionId: string,
): Promise<{ compaction: CompactionJson; status: ContextStatusJson }> {
  const sessionId = await withUser(userId, async (tx) => (await getCompaction(tx, userId, compactionId)).session_id);
  const leaseId = await acquireLease(userId, sessionId);
  try {
    return await withUser(userId, async (tx) => {
      const row = await getCompaction(tx, userId, compactionId);
      await getSession(tx, userId, sessionId, true); // locks the row
      const latest = (await listCompactions(tx, userId, sessionId)).at(-1);
      if (row.status !== "applied" || latest?.id !== row.id) {
        throw conflict("cannot_undo", "Only the session's latest compaction can be undone");
      }
      const prev = row.prev_compaction_id ? await getCompaction(tx, userId, row.prev_compaction_id) : null;
      await installSummary(tx, sessionId, {
        summaryId: prev?.id ?? null,
        text: prev?.summary ?? null,
        tokens: prev?.summary_tokens ?? 0,
        throughTurn: prev?.through_turn ?? 0,
        windowStartTurn: row.prev_window_start_turn,
      });
      const status = contextStatus(await sessionContext(tx, userId, sessionId));
      if (status.current_tokens > status.capacity_tokens) {
        // Thrown inside the transaction, so the restore above is rolled back.
        throw conflict("cannot_undo", "The conversation has grown since; the state before this compaction no longer fits the window.", {
          would_be_tokens: status.current_tokens,
          capacity_tokens: status.capacity_tokens,
        });
      }
      await setCompactionStatus(tx, row.id, "reverted");
      await audit(tx, userId, {
        action: "compaction.reverted",
        target: { type: "compaction", id: row.id },
        metadata: { session_id: sessionId, tokens_after: status.current_tokens },
      });
      if (prev && prev.status === "superseded") await setCompactionStatus(tx, prev.id, "applied");
      return { compaction: compactionJson(await getCompaction(tx, userId, row.id), false), status };
    });
  } finally {
    await release(userId, sessionId, leaseId);
  }
}

export function compactionJson(r: CompactionRow, isLatest: boolean): CompactionJson {
  return {
    id: r.id,
    session_id: r.session_id,
    trigger: r.trigger,
    method: r.method,
    status: r.status,
    pre_tokens: r.pre_tokens,
    post_tokens: r.post_tokens,
    reduction_percent: r.reduction_percent,
    messages_condensed: r.messages_condensed,
    from_turn: r.from_turn,
    through_turn: r.through_turn,
    at_seq: r.at_seq,
    summary_preview: r.summary_preview,
    summary: r.summary,
    summary_tokens: r.summary_tokens,
    items_total: r.items_total,
    retention_rate: Math.round(r.retention_rate * 1000) / 1000,
    preserved_items: r.preserved_items,
    omitted_items: r.omitted_items,
    model: r.model,
    template: r.template,
    instructions: r.instructions,
    duration_ms: r.duration_ms,
    cost_usd: r.cost_usd,
    fallback_reason: r.fallback_reason,
    cache: r.cache_break,
    can_undo: isLatest && r.status === "applied",
    created_at: r.created_at.toISOString(),
  };
}
