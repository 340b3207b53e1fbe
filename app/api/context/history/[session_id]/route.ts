import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { compactionHistory } from "@/lib/chat/compaction-log";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ session_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { session_id } = parseParams(await ctx.params, z.object({ session_id: uuid }));
  return json({ compactions: await compactionHistory(caller.userId, session_id) });
});
