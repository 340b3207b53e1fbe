import "server-only";
import type { ApiTool, Scope } from "@/lib/contract";
import type { Tx } from "./driver";
import { onConflictTake } from "./rate-limits";

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  tools: ApiTool[] | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = "id, user_id, name, prefix, scopes, tools, created_at, expires_at, last_used_at, revoked_at";

export async function insertApiKey(
  tx: Tx,
  userId: string,
  k: { name: string; prefix: string; hash: string; scopes: Scope[]; tools: ApiTool[] | null; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  const [row] = await tx.query<ApiKeyRow>(
    `insert into api_keys (user_id, name, prefix, key_hash, scopes, tools, expires_at) values ($1, $2, $3, $4, $5, $6, $7)
     returning ${COLUMNS}`,
    [userId, k.name, k.prefix, k.hash, k.scopes, k.tools, k.expiresAt],
  );
  return row;
}

/** Sets which of Threadkeeper's own tools the key's requests offer; null when the user has no such key. */
export async function setApiKeyTools(tx: Tx, userId: string, id: string, tools: ApiTool[] | null): Promise<ApiKeyRow | null> {
  const [row] = await tx.query<ApiKeyRow>(`update api_keys set tools = $3 where id = $1 and user_id = $2 returning ${COLUMNS}`, [id, userId, tools]);
  return row ?? null;
}

/** The user's keys, newest first, revoked ones included (they are the key's history). */
export async function listApiKeys(tx: Tx, userId: string): Promise<ApiKeyRow[]> {
  return tx.query<ApiKeyRow>(`select ${COLUMNS} from api_keys where user_id = $1 order by created_at desc, id`, [userId]);
}

/** Revokes now (a revoked key keeps its first revocation time); null when the user has no such key. */
export async function revokeApiKey(tx: Tx, userId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await tx.query<ApiKeyRow>(
    `update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1 and user_id = $2 returning ${COLUMNS}`,
    [id, userId],
  );
  return row ?? null;
}

export type FoundKey = ApiKeyRow & {
  now: Date;
  /** The requests bucket's debt in seconds after this request took from it; null when it did not. */
  debt: number | null;
};

/**
 * The key a presented secret hashes to, whoever owns it: runs on the app's own role, before the
 * caller is known. The index compares SHA-256 digests of 190-bit secrets, so its timing tells an
 * attacker nothing they could steer toward a real key. With `take`, the same statement also
 * takes the request from the key's requests bucket (see takeFromBucket), but only for a key
 * that is live and holds the scope: a request refused anyway costs nothing. One statement, so
 * a request by key pays one round trip for being identified and counted.
 */
export async function findApiKeyByHash(
  tx: Tx,
  hash: string,
  take: { scope: Scope; costMicros: number; windowMicros: number } | null,
): Promise<FoundKey | null> {
  const [row] = await tx.query<FoundKey>(
    `with k as (
       select ${COLUMNS}, now() as now from api_keys where key_hash = $1
     ), took as (
       insert into rate_limits as r (user_id, key_id, bucket, refilled_at)
       select user_id, id, 'requests', clock_timestamp() + $3::bigint * interval '1 microsecond' from k
       where $3::bigint > 0 and revoked_at is null and (expires_at is null or expires_at > now())
         and ($2::text = any(scopes) or 'admin' = any(scopes))
       ${onConflictTake("$3", "$4")}
     )
     select k.*, (select debt from took) as debt from k`,
    [hash, take?.scope ?? null, take?.costMicros ?? 0, take?.windowMicros ?? 0],
  );
  return row ?? null;
}

/** Records a use, at most once a minute per key (the condition re-checks under concurrency). */
export async function touchApiKey(tx: Tx, id: string): Promise<void> {
  await tx.query(
    `update api_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [id],
  );
}
