import { getCaller } from "@/lib/auth";
import { json, parseQuery, route } from "@/lib/api/http";
import { pickerSessions, recentQuery } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req) => {
  const q = parseQuery(req, recentQuery);
  const caller = await getCaller(req);
  return json({ sessions: await pickerSessions(caller.userId, q) });
});
