// Reading the audit log: newest first, filtered, paged by an opaque keyset cursor so a page
// costs the same however long the log is.
import "server-only";
import { z } from "zod";
import type { AuditEventJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { badRequest } from "@/lib/errors";
import { auditQuery } from "@/lib/contract/requests";

interface Row {
  id: string;
  action: string;
  occurred_at: Date;
  actor_type: AuditEventJson["actor"]["type"];
  actor_id: string | null;
  actor_name: string | null;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  ip: string | null;
  user_agent: string | null;
  metadata: Record<string, unknown>;
  session_id: string | null;
  session_title: string | null;
}

/** The position after an event: its time (to the microsecond, as text) and id. */
function encodeCursor(r: { at: string; id: string }): string {
  return Buffer.from(JSON.stringify([r.at, r.id])).toString("base64url");
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown[];
    if (typeof at === "string" && typeof id === "string" && /^[0-9a-f-]{36}$/.test(id) && !Number.isNaN(Date.parse(at))) return { at, id };
  } catch {
    // fall through
  }
  throw badRequest("Invalid 'cursor': pass the next_cursor of a previous page", { cursor });
}

export async function auditEvents(
  userId: string,
  q: z.infer<typeof auditQuery>,
): Promise<{ events: AuditEventJson[]; next_cursor: string | null }> {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const exact = q.action && !q.action.endsWith(".*") ? q.action : null;
  const prefix = q.action?.endsWith(".*") ? `${q.action.slice(0, -1)}%` : null;
  const rows = await withUser(userId, (tx) =>
    tx.query<Row & { at: string }>(
      `select a.id, action, occurred_at, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
         actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata,
         s.id as session_id, s.title as session_title
       from audit_log a
       -- Named by its session's title, not an id; a deleted session names nothing.
       left join lateral (
         select s.id, s.title from sessions s, coalesce(case when a.target_type = 'session' then a.target_id end, a.metadata->>'session_id') ref
         where s.user_id = a.user_id and s.id = case when ref ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then ref::uuid end
       ) s on true
       where a.user_id = $1
         and ($2::text is null or action = $2) and ($3::text is null or action like $3)
         and ($4::text is null or target_id = $4)
         and ($5::timestamptz is null or occurred_at >= $5) and ($6::timestamptz is null or occurred_at < $6)
         and ($7::timestamptz is null or (occurred_at, a.id) < ($7::timestamptz, $8::uuid))
       order by occurred_at desc, a.id desc
       limit $9`,
      [userId, exact, prefix, q.target_id ?? null, q.from ?? null, q.to ?? null, after?.at ?? null, after?.id ?? null, q.limit + 1],
    ),
  );
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    events: page.map((r) => ({
      id: r.id,
      action: r.action,
      occurred_at: r.occurred_at.toISOString(),
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      target: { type: r.target_type, id: r.target_id },
      session: r.session_id && r.session_title !== null ? { id: r.session_id, title: r.session_title } : null,
      request_id: r.request_id,
      ip: r.ip,
      user_agent: r.user_agent,
      metadata: r.metadata,
    })),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last) : null,
  };
}
