// Writing an audit event: called inside the operation's own transaction, so the operation and
// its event (and any webhook delivery it queues) commit or roll back together.
import { currentRequest } from "@/lib/api/request-context";
import type { Tx } from "@/lib/db";
import { enqueueEvent, isWebhookEvent } from "@/lib/webhooks/events";

export interface AuditEvent {
  /** Dotted: compaction.applied, checkpoint.created, session.deleted, ... */
  action: string;
  target?: { type: string; id: string | null };
  /** Small facts about the operation (pre/post tokens, trigger, label); never message text. */
  metadata?: Record<string, unknown>;
}

export async function audit(tx: Tx, userId: string, e: AuditEvent): Promise<void> {
  const r = currentRequest();
  await tx.query(
    `insert into audit_log (user_id, action, actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb)`,
    [
      userId,
      e.action,
      r.actor.type,
      r.actor.id,
      r.actor.name,
      e.target?.type ?? null,
      e.target?.id ?? null,
      r.requestId || null,
      r.ip,
      r.userAgent,
      JSON.stringify(e.metadata ?? {}),
    ],
  );
  // The events integrations subscribe to are audit events too: queued in the same transaction.
  if (isWebhookEvent(e.action)) await enqueueEvent(tx, userId, e.action, { target: e.target ?? null, ...e.metadata });
}
