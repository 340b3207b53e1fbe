import type { Scope } from "@/lib/keys/scopes";
import type { Tx } from "./driver";

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = "id, user_id, name, prefix, scopes, created_at, expires_at, last_used_at, revoked_at";

export async function insertApiKey(
  tx: Tx,
  userId: string,
  k: { name: string; prefix: string; hash: string; scopes: Scope[]; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  const [row] = await tx.query<ApiKeyRow>(
    `insert into api_keys (user_id, name, prefix, key_hash, scopes, expires_at) values ($1, $2, $3, $4, $5, $6)
     returning ${COLUMNS}`,
    [userId, k.name, k.prefix, k.hash, k.scopes, k.expiresAt],
  );
  return row;
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

/**
 * The key a presented secret hashes to, whoever owns it: runs on the app's own role, before the
 * caller is known. The index compares SHA-256 digests of 190-bit secrets, so its timing tells
 * an attacker nothing they could steer toward a real key.
 */
export async function findApiKeyByHash(tx: Tx, hash: string): Promise<(ApiKeyRow & { now: Date }) | null> {
  const [row] = await tx.query<ApiKeyRow & { now: Date }>(`select ${COLUMNS}, now() as now from api_keys where key_hash = $1`, [hash]);
  return row ?? null;
}

/** Records a use, at most once a minute per key (the condition re-checks under concurrency). */
export async function touchApiKey(tx: Tx, id: string): Promise<void> {
  await tx.query(
    `update api_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [id],
  );
}
