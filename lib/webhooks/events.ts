// The events a webhook can subscribe to, and queuing them: one insert per event, in the
// caller's transaction, fanning out to the user's subscribed webhooks. Nothing is sent here.
import "server-only";
import { WEBHOOK_EVENTS } from "@/lib/contract/integrations";
import { withUser, type Tx } from "@/lib/db";
import { log } from "@/lib/log";

export { WEBHOOK_EVENTS };

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(action: string): action is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(action);
}

/**
 * The statement that queues an event for every webhook of the user subscribed to it, with
 * the placeholders of the user id, the event name and the data (JSON text); it ends in a
 * WHERE clause a caller may extend with `and …`.
 */
export function deliveriesSql(user: string, event: string, data: string): string {
  return `insert into webhook_deliveries (user_id, webhook_id, event, payload)
     select w.user_id, w.id, ${event}::text, jsonb_build_object('id', gen_random_uuid(), 'event', ${event}::text, 'created_at', now(), 'data', ${data}::text::jsonb)
     from webhooks w where w.user_id = ${user}::uuid and ${event}::text = any (w.events)`;
}

/** Queues `event` for every webhook of the user subscribed to it; a no-op without one. */
export async function enqueueEvent(tx: Tx, userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await tx.query(deliveriesSql("$1", "$2", "$3"), [userId, event, JSON.stringify(data)]);
}

/** Queues an event that has no transaction of its own (a failure, a status reading). */
export async function queueEvent(userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await withUser(userId, (tx) => enqueueEvent(tx, userId, event, data)).catch((err: unknown) => {
    // Telling integrations is never worth failing the user's turn over.
    log.error(`[threadkeeper] queuing webhook event ${event} failed`, err);
  });
}
