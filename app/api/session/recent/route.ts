import { json, parseQuery, route } from "@/lib/api/http";
import { pickerSessions, recentQuery } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, recentQuery);
  return json({ sessions: await pickerSessions(caller.userId, q) });
});
