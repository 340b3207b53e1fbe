import "server-only";
import { randomUUID } from "node:crypto";
import { withUser, type Tx } from "@/lib/db";
import { leaseAndAppend, type LeasedMessage } from "@/lib/db/lease-append";
import type { NewMessage } from "@/lib/db/messages";
import { releaseTurnLease, renewTurnLease, tryAcquireTurnLease } from "@/lib/db/sessions";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// One turn or compaction at a time per session. Long enough to outlive a server that
// stalls briefly; short enough that a crashed server's lease frees the session soon.
const LEASE_TTL_MS = 30_000;
// A send may wait for a running turn plus a compaction (whose summarizer times out at 20 s).
const LEASE_WAIT_MS = 45_000;

// The sends of this process waiting for a session's lease, by session. The lease itself lives in
// Postgres and a waiter always takes it there; this only wakes a waiter as soon as a holder in
// this process gave it back, instead of at its next poll: a drop-in client's next request
// arrives while the last one's checkpoint still holds the lease, and waited 5 ms for it.
// On globalThis: the routes that take and give back leases may sit in different bundles.
const waiting = ((globalThis as { __threadkeeperLeaseWaiters?: Map<string, Set<() => void>> }).__threadkeeperLeaseWaiters ??= new Map());

/** Wakes this process's sends waiting for the session's lease: call once a transaction that gave it back has committed. */
export function leaseGivenBack(sessionId: string): void {
  const wake = waiting.get(sessionId);
  if (!wake) return;
  waiting.delete(sessionId);
  for (const w of wake) w();
}

/** Waits `ms`, or less when the lease is given back in this process meanwhile. */
function pause(sessionId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wakers = waiting.get(sessionId) ?? new Set<() => void>();
    waiting.set(sessionId, wakers);
    const done = () => {
      clearTimeout(timer);
      wakers.delete(done);
      if (wakers.size === 0 && waiting.get(sessionId) === wakers) waiting.delete(sessionId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakers.add(done);
  });
}

/**
 * Takes the session's turn lease, waiting for a holder to finish. An unknown or another user's
 * session is a 404 (told by the statement that tries the lease).
 */
export async function acquireLease(userId: string, sessionId: string, waitMs = LEASE_WAIT_MS): Promise<string> {
  return (await leaseThen(userId, sessionId, waitMs, async () => undefined, false)).leaseId;
}

/**
 * Takes the lease for a turn and, in the same transaction, runs `then` (which saves the turn's
 * message): a failure of `then` gives the lease back with everything else it wrote. A new turn
 * also clears a stop asked of an earlier one.
 */
export function leaseForTurn<T>(userId: string, sessionId: string, then: (tx: Tx) => Promise<T>): Promise<{ leaseId: string; value: T }> {
  return leaseThen(userId, sessionId, LEASE_WAIT_MS, then, true);
}

/**
 * An ordinary new message's turn: the lease and the message in one statement (leaseAndAppend),
 * then `then` in the same transaction with the session as it then stands. `value` is null when
 * the message's idempotency key was already stored (nothing was written, no lease is held).
 */
export function leaseWithMessage<T>(
  userId: string,
  sessionId: string,
  message: NewMessage,
  then: (tx: Tx, taken: Extract<LeasedMessage, { kind: "taken" }>) => Promise<T>,
): Promise<{ leaseId: string; value: T | null }> {
  return leaseLoop<T | null>(sessionId, LEASE_WAIT_MS, async (leaseId) =>
    withUser(userId, async (tx) => {
      const taken = await leaseAndAppend(tx, userId, sessionId, { id: leaseId, ttlMs: LEASE_TTL_MS }, message);
      if (taken.kind === "busy") return null;
      return { value: taken.kind === "duplicate" ? null : await then(tx, taken) };
    }),
  );
}

function leaseThen<T>(userId: string, sessionId: string, waitMs: number, then: (tx: Tx) => Promise<T>, forTurn: boolean) {
  return leaseLoop(sessionId, waitMs, (leaseId) =>
    withUser(userId, async (tx) =>
      (await tryAcquireTurnLease(tx, userId, sessionId, leaseId, LEASE_TTL_MS, forTurn)) === "taken" ? { value: await then(tx) } : null,
    ),
  );
}

/** Tries `attempt` (null: the lease is busy) until it succeeds or the wait is over. */
async function leaseLoop<T>(
  sessionId: string,
  waitMs: number,
  attempt: (leaseId: string) => Promise<{ value: T } | null>,
): Promise<{ leaseId: string; value: T }> {
  const leaseId = randomUUID();
  const deadline = Date.now() + waitMs;
  // Short waits first: the usual holder is the previous turn's follow-up, done in milliseconds.
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    const taken = await attempt(leaseId);
    if (taken) return { leaseId, value: taken.value };
    if (Date.now() >= deadline) {
      throw new AppError(409, "session_busy", "Another message is being answered in this session; retry shortly.", undefined, {
        "Retry-After": "5",
      });
    }
    await pause(sessionId, wait);
  }
}

export function renewLease(tx: Tx, sessionId: string, leaseId: string): Promise<boolean> {
  return renewTurnLease(tx, sessionId, leaseId, LEASE_TTL_MS);
}

export async function release(userId: string, sessionId: string, leaseId: string): Promise<void> {
  await withUser(userId, (tx) => releaseTurnLease(tx, sessionId, leaseId)).then(
    () => leaseGivenBack(sessionId),
    (e: unknown) => log.error("[threadkeeper] lease release failed; it expires by itself", e),
  );
}
