import { json, parseParams, route } from "@/lib/api/http";
import { sessionIdParams } from "@/lib/contract/requests";
import { compactionHistory } from "@/lib/operations/compaction-log";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ session_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { session_id } = parseParams(await ctx.params, sessionIdParams);
  return json({ compactions: await compactionHistory(caller.userId, session_id) });
});
