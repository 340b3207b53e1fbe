// Reading the audit log: newest first, filtered, paged by an opaque keyset cursor so a page
// costs the same however long the log is.
import "server-only";
import { z } from "zod";
import type { AuditEventJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { auditRows } from "@/lib/db/audit-log";
import { badRequest } from "@/lib/errors";
import { auditQuery } from "@/lib/contract/requests";

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
    auditRows(tx, userId, {
      action: exact,
      prefix,
      targetId: q.target_id ?? null,
      from: q.from ?? null,
      to: q.to ?? null,
      after,
      // One more than the page: whether it exists says whether there is a next page.
      limit: q.limit + 1,
    }),
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
