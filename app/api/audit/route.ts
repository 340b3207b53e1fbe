import { json, parseQuery, route } from "@/lib/api/http";
import { auditEvents, auditQuery } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

/** The caller's audit log, newest first: `?action=&target_id=&from=&to=&cursor=&limit=`. */
export const GET = route(async (req, _ctx, caller) => json(await auditEvents(caller.userId, parseQuery(req, auditQuery))));
