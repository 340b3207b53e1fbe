// Rate limits per API key (and per user for everyone else) and the daily budget, checked by
// route() after the caller is known and before the handler runs. Counted in Postgres on the
// app's own role, so every instance shares them.
import "server-only";
import { getDb, type Tx } from "@/lib/db";
import { takeFromBucket, type Bucket, type BucketState } from "@/lib/db/rate-limits";
import { limitsEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { countRefusal } from "@/lib/metrics";
import { assertWithinBudget, dailyBudget, usageToday } from "./budget";
import { costMicros, quotaOf, rateLimitHeaders, tightest, WINDOW_SECONDS, windowMicros, type Quota } from "./quota";

export const DEFAULT_REQUESTS_PER_MINUTE = 600;
export const DEFAULT_SENDS_PER_MINUTE = 60;

export interface Limits {
  requestsPerMinute: number;
  sendsPerMinute: number;
}

export function limits(): Limits {
  const e = limitsEnv();
  return {
    requestsPerMinute: e.THREADKEEPER_RATE_LIMIT_PER_MINUTE ?? DEFAULT_REQUESTS_PER_MINUTE,
    sendsPerMinute: e.THREADKEEPER_SEND_LIMIT_PER_MINUTE ?? DEFAULT_SENDS_PER_MINUTE,
  };
}

/** Whom a request counts against (lib/auth's Caller is one): the user, the key it came with,
 * and the key's requests bucket when its lookup already took it. */
interface Counted {
  userId: string;
  key?: { id: string };
  requests?: Quota;
}

/**
 * Lets a request in or refuses it: 429 `budget_exhausted` for a send once today's tokens reached
 * the budget, 429 `rate_limited` when a bucket is empty. One transaction, so a refusal rolls
 * back whatever it had taken: a refused request costs nothing. A request by API key arrives
 * with its requests bucket already taken (`caller.requests`, by the key lookup's own
 * statement). Answers the quota to report in the RateLimit-* headers (the bucket closest to
 * refusing), or null when no limit applies.
 */
export async function admit(caller: Counted, opts: { send: boolean }): Promise<Quota | null> {
  const { requestsPerMinute, sendsPerMinute } = limits();
  const checkBudget = opts.send && dailyBudget() !== null;
  const sendLimited = opts.send && sendsPerMinute > 0;
  const takeRequest = requestsPerMinute > 0 && !caller.requests;
  const taken = caller.requests ? [caller.requests] : [];
  if (!takeRequest && !sendLimited && !checkBudget) return tightest(taken);
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (checkBudget) assertWithinBudget(await usageToday(tx, caller.userId));
    const quotas = [...taken];
    if (takeRequest) quotas.push(await take(tx, caller, "requests", requestsPerMinute));
    if (sendLimited) quotas.push(await take(tx, caller, "sends", sendsPerMinute));
    return tightest(quotas);
  });
}

async function take(tx: Tx, caller: Counted, bucket: Bucket, limit: number): Promise<Quota> {
  const keyId = caller.key?.id ?? null;
  const state = await takeFromBucket(tx, { userId: caller.userId, keyId, bucket, costMicros: costMicros(limit), windowMicros: windowMicros() });
  return settle(state, { bucket, limit, keyId });
}

/** The quota a bucket left, or 429 `rate_limited` (with Retry-After and RateLimit-*) when it refused. */
export function settle(state: BucketState, b: { bucket: Bucket; limit: number; keyId: string | null }): Quota {
  const { bucket, limit, keyId } = b;
  const quota = quotaOf(state, limit);
  if (state.allowed) return quota;
  countRefusal(bucket);
  const who = keyId ? "this API key" : "your account";
  const what = bucket === "sends" ? "sends" : "requests";
  throw new AppError(
    429,
    "rate_limited",
    `Too many ${what}: ${limit} per minute for ${who}. Retry in ${quota.retryAfterSeconds} s.`,
    { bucket, limit, window_seconds: WINDOW_SECONDS, per: keyId ? "key" : "user", retry_after_seconds: quota.retryAfterSeconds },
    rateLimitHeaders(quota),
  );
}

export { costMicros, rateLimitHeaders, windowMicros, type Quota };
