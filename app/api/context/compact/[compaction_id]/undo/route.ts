import { json, parseParams, route } from "@/lib/api/http";
import { compactionIdParams } from "@/lib/contract/requests";
import { undoCompaction } from "@/lib/operations/compaction-log";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ compaction_id: string }> };

export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { compaction_id } = parseParams(await ctx.params, compactionIdParams);
  return json(await undoCompaction(caller.userId, compaction_id));
});
