import "server-only";
import type { Tx } from "./driver";

export type Bucket = "requests" | "sends";

export interface BucketState {
  allowed: boolean;
  /**
   * Seconds of the window in use after this request (allowed) or before it (refused):
   * refilled_at - now, never below 0.
   */
  debtSeconds: number;
}

/**
 * The ON CONFLICT and RETURNING clauses of an insert into rate_limits that takes `cost`
 * microseconds from the bucket, or leaves it and returns no row when that would pass `window`.
 * clock_timestamp(), not now(): now() is the transaction's start, and a statement that waited on
 * the bucket's row behind a later-started one would count time backwards and report one request
 * fewer remaining. Each call runs after the one before it, so the debt returned is never more
 * than the debt stored.
 */
export function onConflictTake(cost: string, window: string): string {
  const after = `greatest(r.refilled_at, clock_timestamp()) + ${cost}::bigint * interval '1 microsecond'`;
  return `on conflict (user_id, key_id, bucket) do update
       set refilled_at = ${after}
       where ${after} <= clock_timestamp() + ${window}::bigint * interval '1 microsecond'
     returning extract(epoch from refilled_at - clock_timestamp())::float8 as debt`;
}

/**
 * Takes one request's cost from a bucket, or refuses, on the app's own role (see the
 * rate_limits table in the migrations). The common case is one upsert; only a refusal reads the
 * bucket again, to say how long to wait. A refused request costs nothing, so a client that waits
 * the Retry-After it was given gets in. Concurrent instances serialize on the bucket's row, and
 * the WHERE of ON CONFLICT re-reads its latest version.
 */
export async function takeFromBucket(
  tx: Tx,
  b: { userId: string; keyId: string | null; bucket: Bucket; costMicros: number; windowMicros: number },
): Promise<BucketState> {
  const [took] = await tx.query<{ debt: number }>(
    `insert into rate_limits as r (user_id, key_id, bucket, refilled_at)
     values ($1, $2, $3, clock_timestamp() + $4::bigint * interval '1 microsecond')
     ${onConflictTake("$4", "$5")}`,
    [b.userId, b.keyId, b.bucket, b.costMicros, b.windowMicros],
  );
  if (took) return { allowed: true, debtSeconds: Math.max(0, took.debt) };
  return { allowed: false, debtSeconds: await bucketDebt(tx, b) };
}

/** Seconds until a bucket is full again (a row another instance removed meanwhile counts as full). */
export async function bucketDebt(
  tx: Tx,
  b: { userId: string; keyId: string | null; bucket: Bucket; windowMicros: number },
): Promise<number> {
  const [row] = await tx.query<{ debt: number }>(
    `select extract(epoch from refilled_at - clock_timestamp())::float8 as debt from rate_limits
     where user_id = $1 and key_id is not distinct from $2 and bucket = $3`,
    [b.userId, b.keyId, b.bucket],
  );
  return Math.max(0, row?.debt ?? b.windowMicros / 1e6);
}
