// Sign-in happens between the browser and Supabase; the server first sees a sign-in when a
// token of it arrives. That first sight is the audit event, once per sign-in (the token's
// session_id), with this process remembering recent ones so it costs nothing per request.
import "server-only";
import { withUser } from "@/lib/db";
import { insertSignIn } from "@/lib/db/audit-log";
import { currentRequest } from "@/lib/request-context";

const seen = new Set<string>();
const MAX_REMEMBERED = 10_000;

export async function recordSignIn(userId: string, signInId: string, via: string): Promise<void> {
  if (seen.has(signInId)) return;
  const r = currentRequest();
  await withUser(userId, (tx) =>
    insertSignIn(tx, { userId, actorName: r.actor.name, signInId, requestId: r.requestId || null, ip: r.ip, userAgent: r.userAgent, via }),
  );
  if (seen.size >= MAX_REMEMBERED) seen.clear();
  seen.add(signInId);
}
