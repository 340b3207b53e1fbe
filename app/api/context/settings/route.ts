import { json, parseBody, parseQuery, route } from "@/lib/api/http";
import { putSettingsSchema, sessionScopeQuery as scope } from "@/lib/contract/requests";
import { getSettings, putSettings } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, scope);
  return json(await getSettings(caller.userId, q.session_id));
});

// Settings are `admin` for API keys, the user's defaults and a session's overrides alike.
export const PUT = route(
  async (req, _, caller) => {
    const q = parseQuery(req, scope);
    const body = await parseBody(req, putSettingsSchema, 16 * 1024);
    const { session_id, ...patch } = body;
    return json(await putSettings(caller.userId, session_id ?? q.session_id, patch));
  },
  { scope: "admin" },
);
