import "server-only";
import { randomUUID } from "node:crypto";
import { withUser, type Tx } from "@/lib/db";
import { releaseTurnLease, renewTurnLease, tryAcquireTurnLease } from "@/lib/db/sessions";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// One turn or compaction at a time per session. Long enough to outlive a server that
// stalls briefly; short enough that a crashed server's lease frees the session soon.
const LEASE_TTL_MS = 30_000;
// A send may wait for a running turn plus a compaction (whose summarizer times out at 20 s).
const LEASE_WAIT_MS = 45_000;

export async function acquireLease(userId: string, sessionId: string, waitMs = LEASE_WAIT_MS): Promise<string> {
  const leaseId = randomUUID();
  const deadline = Date.now() + waitMs;
  // Short waits first: the usual holder is the previous turn's follow-up, done in milliseconds.
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    if (await withUser(userId, (tx) => tryAcquireTurnLease(tx, userId, sessionId, leaseId, LEASE_TTL_MS))) return leaseId;
    if (Date.now() >= deadline) {
      throw new AppError(409, "session_busy", "Another message is being answered in this session; retry shortly.", undefined, {
        "Retry-After": "5",
      });
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

export function renewLease(tx: Tx, sessionId: string, leaseId: string): Promise<void> {
  return renewTurnLease(tx, sessionId, leaseId, LEASE_TTL_MS);
}

export async function release(userId: string, sessionId: string, leaseId: string): Promise<void> {
  await withUser(userId, (tx) => releaseTurnLease(tx, sessionId, leaseId)).catch((e: unknown) =>
    log.error("[threadkeeper] lease release failed; it expires by itself", e),
  );
}
