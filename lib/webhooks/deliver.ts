// Sending queued deliveries. Any instance may run the worker: a delivery is claimed with
// SKIP LOCKED and a lease, so two never send the same one at once, and one whose sender died
// is claimed again when its lease ends. Each attempt is signed; a failure is retried with
// exponential backoff until MAX_ATTEMPTS, then marked failed. Runs on the app's own role:
// the queue spans users.
import "server-only";
import { createHmac } from "node:crypto";
import { authMode } from "@/lib/mode";
import type { Database } from "@/lib/db";
import { claimDueDeliveries, recordDeliveryAttempt, type DueDelivery } from "@/lib/db/webhooks";
import { log } from "@/lib/log";
import { post } from "./send";

const MAX_ATTEMPTS = 8;
const BATCH = 20;
const TIMEOUT_MS = 10_000;
/** How long a claimed delivery is reserved for its sender before others may take it. */
const LEASE_S = 60;

export interface DeliveryOptions {
  /** First retry delay; each further one doubles, up to an hour. */
  backoffMs: number;
  /**
   * Only public addresses (default: in SaaS mode). A URL's name is checked again at each
   * attempt, on the address connected to: it may have resolved publicly when the webhook was
   * made and privately since.
   */
  publicOnly?: boolean;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe-style receivers expect. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Sends what is due now; returns how many deliveries were attempted. */
export async function deliverDue(db: Database, opts: DeliveryOptions): Promise<number> {
  const due = await db.transaction((tx) => claimDueDeliveries(tx, BATCH, LEASE_S));
  await Promise.all(due.map((d) => attempt(db, d, opts)));
  return due.length;
}

async function attempt(db: Database, d: DueDelivery, opts: DeliveryOptions): Promise<void> {
  const body = JSON.stringify(d.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = await post(d.url, {
      headers: {
        "content-type": "application/json",
        "user-agent": "Threadkeeper-Webhooks/1",
        "threadkeeper-event": d.event,
        "threadkeeper-delivery": d.id,
        "threadkeeper-signature": signature(d.secret, timestamp, body),
      },
      body,
      timeoutMs: TIMEOUT_MS,
      publicOnly: opts.publicOnly ?? authMode() === "supabase",
    });
    if (status < 200 || status >= 300) error = `HTTP ${status}`;
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const attempts = d.attempts + 1;
  const delayMs = Math.min(opts.backoffMs * 2 ** (attempts - 1), 60 * 60_000);
  await db
    .transaction((tx) =>
      recordDeliveryAttempt(tx, { id: d.id, attempts, statusCode: status, error: error?.slice(0, 500) ?? null, delayMs, maxAttempts: MAX_ATTEMPTS }),
    )
    .catch((err: unknown) => log.error("[threadkeeper] recording a webhook attempt failed; it will be retried", err));
}

/** Polls the queue every second in this process; the function it answers stops it once the current pass is over. */
export function scheduleDeliveries(db: Database, opts: DeliveryOptions): () => Promise<void> {
  let pass: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (pass) return;
    pass = deliverDue(db, opts)
      .then(
        () => undefined,
        (err: unknown) => log.error("[threadkeeper] webhook delivery pass failed", err),
      )
      .finally(() => {
        pass = null;
      });
  }, 1_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
