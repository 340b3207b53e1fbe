// Sign-in happens between the browser and Supabase; the server first sees a sign-in when a
// token of it arrives. That first sight is the audit event, once per sign-in (the token's
// session_id), with this process remembering recent ones so it costs nothing per request.
import "server-only";
import { withUser } from "@/lib/db";
import { currentRequest } from "@/lib/request-context";

const seen = new Set<string>();
const MAX_REMEMBERED = 10_000;

export async function recordSignIn(userId: string, signInId: string, via: string): Promise<void> {
  if (seen.has(signInId)) return;
  const r = currentRequest();
  await withUser(userId, (tx) =>
    tx.query(
      `insert into audit_log (user_id, action, actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata)
       select $1::uuid, 'auth.signed_in', 'user', $1::text, $2, 'sign_in', $3::text, $4, $5, $6, $7::text::jsonb
       where not exists (select 1 from audit_log where user_id = $1::uuid and target_id = $3::text and action = 'auth.signed_in')`,
      [userId, r.actor.name, signInId, r.requestId || null, r.ip, r.userAgent, JSON.stringify({ via })],
    ),
  );
  if (seen.size >= MAX_REMEMBERED) seen.clear();
  seen.add(signInId);
}
