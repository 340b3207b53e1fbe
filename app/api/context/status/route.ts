import { json, parseQuery, route } from "@/lib/api/http";
import { statusQuery } from "@/lib/contract/requests";
import { getStatus } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, statusQuery);
  return json(await getStatus(caller.userId, q.session_id));
});
