// The audit log as the activity page reads it.
import type { AuditEventJson, AuditPageJson } from "@/lib/contract";
import { json } from "@/lib/client/api/http";

export type { AuditEventJson };

export async function auditPage(
  q: { action?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<AuditPageJson> {
  const params = new URLSearchParams({ limit: String(q.limit ?? 50) });
  if (q.action) params.set("action", q.action);
  if (q.cursor) params.set("cursor", q.cursor);
  return json(`/api/audit?${params}`, { signal });
}
