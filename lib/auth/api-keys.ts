// A request authenticated by `Authorization: Bearer tk_live_…`: the key's format and checksum
// first (a typo never reaches the database), then the failures of the caller's address (past its
// limit, 429 before any lookup), then its hash, on the app's own role because the
// owner is not known yet. The caller it answers acts as the key's owner with the key's scopes.
// Given the route's admission (the scope it needs, the requests-per-minute limit), the lookup's
// statement also checks the scope and takes the request from the key's bucket: identifying and
// counting a request by key costs one statement.
import "server-only";
import { getDb } from "@/lib/db";
import { findApiKeyByHash, touchApiKey } from "@/lib/db/api-keys";
import { bucketDebt } from "@/lib/db/rate-limits";
import { AppError, bearerChallenge } from "@/lib/errors";
import { checkKeyFormat, hashKey } from "@/lib/keys/format";
import type { Scope } from "@/lib/contract";
import { requireScope } from "@/lib/keys/scopes";
import { costMicros, settle, windowMicros } from "@/lib/limits";
import { beginKeyLookup } from "@/lib/limits/failed-auth";
import { quotaOf } from "@/lib/limits/quota";
import type { Caller } from "./caller";

/** What a route asks of a caller before its handler runs. */
export interface Admission {
  scope: Scope;
  /** 0: no limit. */
  requestsPerMinute: number;
}

/** How long a key's last_used_at may lag behind its latest use. */
const TOUCH_AFTER_MS = 60_000;

const REASONS = {
  malformed: "This is not a Threadkeeper API key: keys look like tk_live_ followed by 38 letters and digits.",
  bad_checksum: "This API key has a typo: its checksum does not match. Copy it again.",
  unknown: "No such API key.",
  revoked: "This API key was revoked.",
  expired: "This API key has expired.",
} as const;

function invalidKey(reason: keyof typeof REASONS): AppError {
  return new AppError(401, "invalid_api_key", REASONS[reason], { reason }, bearerChallenge("invalid_token", REASONS[reason]));
}

/**
 * `client`: the caller's address (lib/limits/failed-auth.ts). A key that passes the format and
 * checksum but is unknown, revoked or expired counts as a failure of that address; past its
 * limit, the next keys from it are refused with 429 before any lookup.
 */
export async function keyCaller(secret: string, client: string, admission?: Admission): Promise<Caller> {
  const problem = checkKeyFormat(secret);
  if (problem) throw invalidKey(problem);
  const hash = hashKey(secret);
  const attempt = await beginKeyLookup(client, hash);
  try {
    const caller = await lookUp(hash, admission);
    attempt.succeeded();
    return caller;
  } catch (err) {
    if (err instanceof AppError && err.code === "invalid_api_key") attempt.failed();
    // Found but out of scope or over its rate limit: the key itself is good.
    else if (err instanceof AppError) attempt.succeeded();
    else attempt.abandoned();
    throw err;
  }
}

async function lookUp(hash: string, admission?: Admission): Promise<Caller> {
  const limit = admission?.requestsPerMinute ?? 0;
  const take = admission && limit > 0 ? { scope: admission.scope, costMicros: costMicros(limit), windowMicros: windowMicros() } : null;
  const db = await getDb();
  // A refusal thrown inside rolls the transaction back, so it costs the key nothing.
  return db.transaction(async (tx) => {
    const key = await findApiKeyByHash(tx, hash, take);
    if (!key) throw invalidKey("unknown");
    if (key.revoked_at) throw invalidKey("revoked");
    if (key.expires_at && key.expires_at.getTime() <= key.now.getTime()) throw invalidKey("expired");
    const caller: Caller = { userId: key.user_id, email: null, via: "key", key: { id: key.id, name: key.name, scopes: key.scopes, tools: key.tools } };
    if (admission) requireScope(key.scopes, admission.scope);
    if (take) {
      const bucket = { userId: key.user_id, keyId: key.id, bucket: "requests" as const, windowMicros: take.windowMicros };
      caller.requests =
        key.debt !== null
          ? quotaOf({ allowed: true, debtSeconds: Math.max(0, key.debt) }, limit)
          : settle({ allowed: false, debtSeconds: await bucketDebt(tx, bucket) }, { bucket: "requests", limit, keyId: key.id });
    }
    if (!key.last_used_at || key.now.getTime() - key.last_used_at.getTime() >= TOUCH_AFTER_MS) await touchApiKey(tx, key.id);
    return caller;
  });
}
