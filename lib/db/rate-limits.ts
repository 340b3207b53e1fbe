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
 * Takes one request's cost from a bucket, or refuses, in one statement on the app's own role
 * (see the rate_limits table in the migrations). The refused request costs nothing, so a
 * client that waits the Retry-After it was given gets in. Concurrent instances serialize on
 * the bucket's row, and the WHERE of ON CONFLICT re-reads its latest version.
 */
export async function takeFromBucket(
  tx: Tx,
  b: { userId: string; keyId: string | null; bucket: Bucket; costMicros: number; windowMicros: number },
): Promise<BucketState> {
  const [row] = await tx.query<{ after: number | null; before: number | null }>(
    `with prev as (
       select refilled_at from rate_limits where user_id = $1 and key_id is not distinct from $2 and bucket = $3
     ), took as (
       insert into rate_limits as r (user_id, key_id, bucket, refilled_at)
       values ($1, $2, $3, now() + $4::bigint * interval '1 microsecond')
       on conflict (user_id, key_id, bucket) do update
         set refilled_at = greatest(r.refilled_at, now()) + $4::bigint * interval '1 microsecond'
         where greatest(r.refilled_at, now()) + $4::bigint * interval '1 microsecond' <= now() + $5::bigint * interval '1 microsecond'
       returning refilled_at
     )
     select extract(epoch from (select refilled_at from took) - now())::float8 as after,
            extract(epoch from (select refilled_at from prev) - now())::float8 as before`,
    [b.userId, b.keyId, b.bucket, b.costMicros, b.windowMicros],
  );
  if (row.after !== null) return { allowed: true, debtSeconds: Math.max(0, row.after) };
  // Refused: the bucket as it stood (a row another instance removed meanwhile counts as full).
  return { allowed: false, debtSeconds: Math.max(0, row.before ?? b.windowMicros / 1e6) };
}
