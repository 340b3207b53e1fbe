import { json, parseParams, parseQuery, route } from "@/lib/api/http";
import { messageIdParams as params, sessionScopeQuery as scope } from "@/lib/contract/requests";
import { protectMessage } from "@/lib/operations/protect";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ message_id: string }> };

function protectRoute(value: boolean) {
  return route<Ctx>(async (req, ctx, caller) => {
    const { message_id } = parseParams(await ctx.params, params);
    const { session_id } = parseQuery(req, scope);
    return json({ message: await protectMessage(caller.userId, message_id, value, session_id) });
  });
}

export const POST = protectRoute(true);
export const DELETE = protectRoute(false);
