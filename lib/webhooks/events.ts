// The events a webhook can subscribe to, and queuing them: one insert per event, in the
// caller's transaction, fanning out to the user's subscribed webhooks. Nothing is sent here.
import "server-only";
import type { WebhookEvent } from "@/lib/contract/integrations";
import { withUser, type Tx } from "@/lib/db";
import { insertDeliveries } from "@/lib/db/webhooks";
import { log } from "@/lib/log";

/** Queues `event` for every webhook of the user subscribed to it; a no-op without one. */
export async function enqueueEvent(tx: Tx, userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await insertDeliveries(tx, userId, event, data);
}

/** Queues an event that has no transaction of its own (a failure, a status reading). */
export async function queueEvent(userId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await withUser(userId, (tx) => enqueueEvent(tx, userId, event, data)).catch((err: unknown) => {
    // Telling integrations is never worth failing the user's turn over.
    log.error(`[threadkeeper] queuing webhook event ${event} failed`, err);
  });
}
