import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { createSession, recentSessions } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const POST = route(api.createSession, async ({ body, caller }) => json({ session: await createSession(caller.userId, body) }, 201));

export const GET = route(api.listSessions, async ({ query, caller }) => json({ sessions: await recentSessions(caller.userId, query.limit) }));
