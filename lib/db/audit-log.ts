// The audit log: one row per operation, written in the operation's own transaction so the two
// commit or roll back together; read newest first by a keyset, so a page costs the same
// however long the log is.
import "server-only";
import type { Actor } from "@/lib/request-context";
import type { Tx } from "./driver";
import { deliveriesSql } from "./webhooks";

/** An event as stored: what happened, to what, and who asked (from the request's context). */
export interface AuditEntry {
  userId: string;
  action: string;
  actor: Actor;
  targetType: string | null;
  targetId: string | null;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
}

const INSERT = `insert into audit_log (user_id, action, actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb)`;

function entryParams(e: AuditEntry): unknown[] {
  return [
    e.userId,
    e.action,
    e.actor.type,
    e.actor.id,
    e.actor.name,
    e.targetType,
    e.targetId,
    e.requestId,
    e.ip,
    e.userAgent,
    JSON.stringify(e.metadata),
  ];
}

export async function insertAuditEvent(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.query(INSERT, entryParams(e));
}

/**
 * The event and a webhook delivery of it (`data`) to each of the user's webhooks subscribed to
 * `e.action`, as one statement: the deliveries exist only if the event was written.
 */
export async function insertAuditEventWithDeliveries(tx: Tx, e: AuditEntry, data: Record<string, unknown>): Promise<void> {
  await tx.query(
    `with event as (${INSERT} returning 1)
     ${deliveriesSql("$1", "$2", "$12")} and exists (select 1 from event)`,
    [...entryParams(e), JSON.stringify(data)],
  );
}

/**
 * A sign-in's event, unless one with its id (`signInId`) is already logged: a sign-in is first
 * seen by whichever instance gets its token first, possibly by several at once.
 */
export async function insertSignIn(
  tx: Tx,
  e: { userId: string; actorName: string | null; signInId: string; requestId: string | null; ip: string | null; userAgent: string | null; via: string },
): Promise<void> {
  await tx.query(
    `insert into audit_log (user_id, action, actor_type, actor_id, actor_name, target_type, target_id, request_id, ip, user_agent, metadata)
       select $1::uuid, 'auth.signed_in', 'user', $1::text, $2, 'sign_in', $3::text, $4, $5, $6, $7::text::jsonb
       where not exists (select 1 from audit_log where user_id = $1::uuid and target_id = $3::text and action = 'auth.signed_in')`,
    [e.userId, e.actorName, e.signInId, e.requestId, e.ip, e.userAgent, JSON.stringify({ via: e.via })],
  );
}

export interface AuditRow {
  id: string;
  action: string;
  occurred_at: Date;
  /** occurred_at to the microsecond, as text: the keyset's position (a Date keeps milliseconds). */
  at: string;
  actor_type: Actor["type"];
  actor_id: string | null;
  actor_name: string | null;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  ip: string | null;
  user_agent: string | null;
  metadata: Record<string, unknown>;
  /** The session the event is about (its target, or metadata.session_id), while it exists. */
  session_id: string | null;
  session_title: string | null;
}

export interface AuditFilter {
  /** One action exactly. */
  action: string | null;
  /** A LIKE pattern of actions (`compaction.%`). */
  prefix: string | null;
  targetId: string | null;
  from: Date | null;
  to: Date | null;
  /** The position after which the page starts (newest first), from the previous page's last row. */
  after: { at: string; id: string } | null;
  /** Rows at most. */
  limit: number;
}

/** The user's events, newest first, from `f.after` on. */
export async function auditRows(tx: Tx, userId: string, f: AuditFilter): Promise<AuditRow[]> {
  return tx.query<AuditRow>(
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
    [userId, f.action, f.prefix, f.targetId, f.from, f.to, f.after?.at ?? null, f.after?.id ?? null, f.limit],
  );
}
