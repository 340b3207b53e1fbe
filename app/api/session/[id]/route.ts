import { json, noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { removeSession, sessionDetail, updateSession } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

export const GET = route(api.getSession, async ({ params, caller }) => json(await sessionDetail(caller.userId, params.id)));

export const PATCH = route(api.updateSession, async ({ params, body, caller }) => json({ session: await updateSession(caller.userId, params.id, body) }));

export const DELETE = route(api.deleteSession, async ({ params, caller }) => {
  await removeSession(caller.userId, params.id);
  return noContent();
});
