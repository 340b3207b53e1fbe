import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { undoCompaction } from "@/lib/chat/compaction-log";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ compaction_id: string }> };

export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { compaction_id } = parseParams(await ctx.params, z.object({ compaction_id: uuid }));
  return json(await undoCompaction(caller.userId, compaction_id));
});
