import { z } from "zod";
import { json, parseParams, parseQuery, route, uuid } from "@/lib/api/http";
import { protectMessage } from "@/lib/chat/protect";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ message_id: string }> };
const params = z.object({ message_id: uuid });
// A fork shares its source's messages; session_id says in which session's view to (un)protect.
const scope = z.object({ session_id: uuid.optional() }).strict();

function protectRoute(value: boolean) {
  return route<Ctx>(async (req, ctx, caller) => {
    const { message_id } = parseParams(await ctx.params, params);
    const { session_id } = parseQuery(req, scope);
    return json({ message: await protectMessage(caller.userId, message_id, value, session_id) });
  });
}

export const POST = protectRoute(true);
export const DELETE = protectRoute(false);
