// The webhooks a user registered and their delivery queue. Queuing happens in the caller's
// transaction (an event and its deliveries commit with the operation); sending claims rows
// across users, so the worker's statements run on the app's own role (lib/webhooks/deliver.ts).
import "server-only";
import type { DeliveryJson } from "@/lib/contract";
import type { Tx } from "./driver";

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  created_at: Date;
}

/**
 * The statement that queues an event for every webhook of the user subscribed to it, with
 * the placeholders of the user id, the event name and the data (JSON text); it ends in a
 * WHERE clause a caller may extend with `and …` (the audit log makes an event and its
 * deliveries one statement: lib/db/audit-log.ts).
 */
export function deliveriesSql(user: string, event: string, data: string): string {
  return `insert into webhook_deliveries (user_id, webhook_id, event, payload)
     select w.user_id, w.id, ${event}::text, jsonb_build_object('id', gen_random_uuid(), 'event', ${event}::text, 'created_at', now(), 'data', ${data}::text::jsonb)
     from webhooks w where w.user_id = ${user}::uuid and ${event}::text = any (w.events)`;
}

/** Queues `event` for every webhook of the user subscribed to it; inserts nothing without one. */
export async function insertDeliveries(tx: Tx, userId: string, event: string, data: Record<string, unknown>): Promise<void> {
  await tx.query(deliveriesSql("$1", "$2", "$3"), [userId, event, JSON.stringify(data)]);
}

export async function insertWebhook(tx: Tx, userId: string, w: { url: string; events: string[]; secret: string }): Promise<WebhookRow> {
  const [row] = await tx.query<WebhookRow>(
    `insert into webhooks (user_id, url, events, secret) values ($1, $2, $3, $4) returning id, url, events, created_at`,
    [userId, w.url, w.events, w.secret],
  );
  return row;
}

/** The user's webhooks, oldest first; never their secrets. */
export async function listWebhookRows(tx: Tx, userId: string): Promise<WebhookRow[]> {
  return tx.query<WebhookRow>(`select id, url, events, created_at from webhooks where user_id = $1 order by created_at`, [userId]);
}

/** Deletes the user's webhook (its deliveries go with it); false when there was none. */
export async function deleteWebhookRow(tx: Tx, userId: string, id: string): Promise<boolean> {
  const rows = await tx.query(`delete from webhooks where id = $1 and user_id = $2 returning id`, [id, userId]);
  return rows.length > 0;
}

export async function webhookExists(tx: Tx, userId: string, id: string): Promise<boolean> {
  const [hook] = await tx.query(`select 1 from webhooks where id = $1 and user_id = $2`, [id, userId]);
  return hook !== undefined;
}

export type DeliveryRow = Omit<DeliveryJson, "next_attempt_at" | "created_at" | "delivered_at"> & {
  next_attempt_at: Date;
  created_at: Date;
  delivered_at: Date | null;
};

/** A webhook's latest deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  tx: Tx,
  userId: string,
  webhookId: string,
  q: { status: string | null; limit: number },
): Promise<DeliveryRow[]> {
  return tx.query<DeliveryRow>(
    `select id, webhook_id, event, status, attempts, next_attempt_at, last_status_code, last_error, created_at, delivered_at, payload
     from webhook_deliveries where webhook_id = $1 and user_id = $2 and ($3::text is null or status = $3)
     order by created_at desc limit $4`,
    [webhookId, userId, q.status, q.limit],
  );
}

/** A claimed delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  event: string;
  payload: unknown;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * Claims up to `batch` deliveries that are due (pending, or delivering with an expired lease),
 * oldest due first, and leases them for `leaseSeconds`: SKIP LOCKED, so two workers never claim
 * the same one, and a sender that died leaves it to be claimed again when the lease ends.
 */
export async function claimDueDeliveries(tx: Tx, batch: number, leaseSeconds: number): Promise<DueDelivery[]> {
  return tx.query<DueDelivery>(
    `with picked as (
         select d.id from webhook_deliveries d
         where d.status in ('pending', 'delivering') and d.next_attempt_at <= now()
         order by d.next_attempt_at limit ${batch} for update skip locked)
       update webhook_deliveries d set status = 'delivering', next_attempt_at = now() + interval '${leaseSeconds} seconds'
       from picked, webhooks w where d.id = picked.id and w.id = d.webhook_id
       returning d.id, d.event, d.payload, d.attempts, w.url, w.secret`,
  );
}

/**
 * Records an attempt: delivered without an error; otherwise pending again after `delayMs`, or
 * failed once `attempts` reaches `maxAttempts`.
 */
export async function recordDeliveryAttempt(
  tx: Tx,
  a: { id: string; attempts: number; statusCode: number | null; error: string | null; delayMs: number; maxAttempts: number },
): Promise<void> {
  await tx.query(
    `update webhook_deliveries set attempts = $2, last_status_code = $3, last_error = $4,
           status = case when $4::text is null then 'delivered' when $2 >= ${a.maxAttempts} then 'failed' else 'pending' end,
           delivered_at = case when $4::text is null then now() else null end,
           next_attempt_at = now() + ($5::int * interval '1 millisecond')
         where id = $1`,
    [a.id, a.attempts, a.statusCode, a.error, a.delayMs],
  );
}

/** Deliveries waiting to be sent, across users (the metrics' queue depth): one count on the due index. */
export async function webhookQueueDepth(tx: Tx): Promise<number> {
  const [row] = await tx.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status in ('pending', 'delivering')`);
  return row?.n ?? 0;
}
