import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { auditEvents } from "@/lib/audit/query";

export const dynamic = "force-dynamic";

export const GET = route(api.listAuditEvents, async ({ query, caller }) => json(await auditEvents(caller.userId, query)));
