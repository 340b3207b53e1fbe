import { json, parseParams, route } from "@/lib/api/http";
import { idParams } from "@/lib/contract/requests";
import { restoreCheckpoint } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  return json(await restoreCheckpoint(caller.userId, id), 201);
});
