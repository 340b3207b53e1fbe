import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { getSettings, putSettings } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(api.getSettings, async ({ query, caller }) => json(await getSettings(caller.userId, query.session_id)));

/** The session may also be named in the body; the body wins over the query. */
export const PUT = route(api.putSettings, async ({ query, body, caller }) => {
  const { session_id, ...patch } = body;
  return json(await putSettings(caller.userId, session_id ?? query.session_id, patch));
});
