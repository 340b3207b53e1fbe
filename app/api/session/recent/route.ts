import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { pickerSessions } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(api.pickSessions, async ({ query, caller }) => json({ sessions: await pickerSessions(caller.userId, query) }));
