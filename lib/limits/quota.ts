// Rate-limit arithmetic and headers, pure. A bucket is GCRA's token bucket: it holds `limit`
// requests and refills at `limit` per 60 s. Each request adds window / limit of "debt", which
// drains in real time; a request that would push the debt past the window is refused. See
// takeFromBucket for the storage side.
import "server-only";
import type { BucketState } from "@/lib/db/rate-limits";

export const WINDOW_SECONDS = 60;
const WINDOW_MICROS = WINDOW_SECONDS * 1_000_000;

/** One request's cost in whole microseconds, rounded down so `limit` requests always fit the window. */
export function costMicros(limit: number): number {
  return Math.floor(WINDOW_MICROS / limit);
}

export const windowMicros = (): number => WINDOW_MICROS;

export interface Quota {
  limit: number;
  /** Requests that would still be allowed right now. */
  remaining: number;
  /** Seconds until the bucket is full again (all `limit` requests available). */
  resetSeconds: number;
  /** Refused requests only: seconds until one more request is allowed. */
  retryAfterSeconds: number | null;
}

export function quotaOf(state: BucketState, limit: number): Quota {
  const cost = costMicros(limit);
  const debt = Math.round(state.debtSeconds * 1_000_000);
  const resetSeconds = Math.ceil(debt / 1_000_000);
  if (state.allowed) {
    return { limit, remaining: Math.max(0, Math.floor((WINDOW_MICROS - debt) / cost)), resetSeconds, retryAfterSeconds: null };
  }
  // The next request fits once the debt has drained to window - cost.
  const wait = Math.max(1, Math.ceil((debt + cost - WINDOW_MICROS) / 1_000_000));
  return { limit, remaining: 0, resetSeconds, retryAfterSeconds: wait };
}

/** Of several buckets a request took from, the one to report: the closest to refusing. */
export function tightest(quotas: Quota[]): Quota | null {
  let best: Quota | null = null;
  for (const q of quotas) if (!best || q.remaining < best.remaining || (q.remaining === best.remaining && q.limit < best.limit)) best = q;
  return best;
}

/**
 * The RateLimit-Limit / -Remaining / -Reset fields of the IETF httpapi draft (delta seconds),
 * plus Retry-After on a refusal.
 */
export function rateLimitHeaders(q: Quota): Record<string, string> {
  const h: Record<string, string> = {
    "RateLimit-Limit": String(q.limit),
    "RateLimit-Remaining": String(q.remaining),
    "RateLimit-Reset": String(q.resetSeconds),
  };
  if (q.retryAfterSeconds !== null) h["Retry-After"] = String(q.retryAfterSeconds);
  return h;
}
