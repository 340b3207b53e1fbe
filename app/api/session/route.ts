import { json, parseBody, parseQuery, route } from "@/lib/api/http";
import { sessionListQuery as listQuery } from "@/lib/contract/requests";
import { createSession, createSessionSchema, recentSessions } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, createSessionSchema, 64 * 1024);
  return json({ session: await createSession(caller.userId, body) }, 201);
});

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, listQuery);
  return json({ sessions: await recentSessions(caller.userId, q.limit) });
});
