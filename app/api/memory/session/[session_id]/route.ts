import { json, parseParams, route } from "@/lib/api/http";
import { sessionIdParams } from "@/lib/contract/requests";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ session_id: string }> };

/** Memories saved from this session, and those loaded into it. */
export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { session_id } = parseParams(await ctx.params, sessionIdParams);
  return json(await memories.ofSession(caller.userId, session_id));
});
