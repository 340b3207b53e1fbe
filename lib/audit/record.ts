// Writing an audit event: called inside the operation's own transaction, so the operation and
// its event (and any webhook delivery it queues) commit or roll back together.
import "server-only";
import { currentRequest } from "@/lib/request-context";
import type { Tx } from "@/lib/db";
import { insertAuditEvent, insertAuditEventWithDeliveries, type AuditEntry } from "@/lib/db/audit-log";
import { isWebhookEvent } from "@/lib/contract/integrations";

export interface AuditEvent {
  /** Dotted: compaction.applied, checkpoint.created, session.deleted, ... */
  action: string;
  target?: { type: string; id: string | null };
  /** Small facts about the operation (pre/post tokens, trigger, label); never message text. */
  metadata?: Record<string, unknown>;
}

export async function audit(tx: Tx, userId: string, e: AuditEvent): Promise<void> {
  const r = currentRequest();
  const entry: AuditEntry = {
    userId,
    action: e.action,
    actor: r.actor,
    targetType: e.target?.type ?? null,
    targetId: e.target?.id ?? null,
    requestId: r.requestId || null,
    ip: r.ip,
    userAgent: r.userAgent,
    metadata: e.metadata ?? {},
  };
  if (!isWebhookEvent(e.action)) {
    await insertAuditEvent(tx, entry);
    return;
  }
  // The events integrations subscribe to are audit events too: the event and its deliveries
  // are one statement, in the operation's transaction.
  await insertAuditEventWithDeliveries(tx, entry, { target: e.target ?? null, ...e.metadata });
}
