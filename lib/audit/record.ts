// Writing an audit event: called inside the operation's own transaction, so the operation and
// its event (and any webhook delivery it queues) commit or roll back together.
import "server-only";
import { currentRequest } from "@/lib/request-context";
import type { Tx } from "@/lib/db";
import { deliveriesSql, isWebhookEvent } from "@/lib/webhooks/events";

export interface AuditEvent {
  /** Dotted: compaction.applied, checkpoint.created, session.deleted, ... */
  action: string;
  target?: { type: string; id: string | null };
  /** Small facts about the operation (pre/post tokens, trigger, label); never message text. */
  metadata?: Record<string, unknown>;
}

export async function audit(tx: Tx, userId: string, e: AuditEvent): Promise<void> {
  const r = currentRequest();
  const params = [
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
  ];
  const insert = `insert into audit_log (user_id, action, actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb)`;
  if (!isWebhookEvent(e.action)) {
    await tx.query(insert, params);
    return;
  }
  // The events integrations subscribe to are audit events too: the event and its deliveries
  // are one statement, in the operation's transaction.
  await tx.query(
    `with event as (${insert} returning 1)
     ${deliveriesSql("$1", "$2", "$12")} and exists (select 1 from event)`,
    [...params, JSON.stringify({ target: e.target ?? null, ...e.metadata })],
  );
}
