import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { sessionCheckpoints } from "@/lib/chat/checkpoints";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ session_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { session_id } = parseParams(await ctx.params, z.object({ session_id: uuid }));
  return json({ checkpoints: await sessionCheckpoints(caller.userId, session_id) });
});
