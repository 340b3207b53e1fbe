// The events a webhook can subscribe to, and queuing them: one insert per event, in the
// caller's transaction, fanning out to the user's subscribed webhooks. Nothing is sent here.
import { withUser, type Tx } from "@/lib/db";
import { log } from "@/lib/log";

export const WEBHOOK_EVENTS = [
  "compaction.applied",
  "compaction.failed",
  "checkpoint.created",
  "context.threshold_crossed",
  "memory.saved",
  "session.recovered",
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(action: string): action is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(action);
}

/** Queues `event` for every webhook of the user subscribed to it; a no-op without one. */
export async function enqueueEvent(tx: Tx, userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await tx.query(
    `insert into webhook_deliveries (user_id, webhook_id, event, payload)
     select w.user_id, w.id, $2, jsonb_build_object('id', gen_random_uuid(), 'event', $2::text, 'created_at', now(), 'data', $3::text::jsonb)
     from webhooks w where w.user_id = $1 and $2 = any (w.events)`,
    [userId, event, JSON.stringify(data)],
  );
}

/** Queues an event that has no transaction of its own (a failure, a status reading). */
export async function queueEvent(userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await withUser(userId, (tx) => enqueueEvent(tx, userId, event, data)).catch((err: unknown) => {
    // Telling integrations is never worth failing the user's turn over.
    log.error(`[threadkeeper] queuing webhook event ${event} failed`, err);
  });
}
