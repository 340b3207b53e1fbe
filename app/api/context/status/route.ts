import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { getStatus } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(api.getContextStatus, async ({ query, caller }) => json(await getStatus(caller.userId, query.session_id)));
