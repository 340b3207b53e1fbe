// A request authenticated by `Authorization: Bearer tk_live_…`: the key's format and checksum
// first (a typo never reaches the database), then its hash, on the app's own role because the
// owner is not known yet. The caller it answers acts as the key's owner with the key's scopes.
import { getDb } from "@/lib/db";
import { findApiKeyByHash, touchApiKey } from "@/lib/db/api-keys";
import { AppError } from "@/lib/errors";
import { checkKeyFormat, hashKey } from "@/lib/keys/format";
import type { Caller } from "./index";

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
  return new AppError(401, "invalid_api_key", REASONS[reason], { reason }, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
}

export async function keyCaller(secret: string): Promise<Caller> {
  const problem = checkKeyFormat(secret);
  if (problem) throw invalidKey(problem);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const key = await findApiKeyByHash(tx, hashKey(secret));
    if (!key) throw invalidKey("unknown");
    if (key.revoked_at) throw invalidKey("revoked");
    if (key.expires_at && key.expires_at.getTime() <= key.now.getTime()) throw invalidKey("expired");
    if (!key.last_used_at || key.now.getTime() - key.last_used_at.getTime() >= TOUCH_AFTER_MS) await touchApiKey(tx, key.id);
    return { userId: key.user_id, email: null, via: "key", key: { id: key.id, name: key.name, scopes: key.scopes } };
  });
}
