import { json, parseParams, route } from "@/lib/api/http";
import { idParams as params } from "@/lib/contract/requests";
import { checkpointDetail, removeCheckpoint } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  return json(await checkpointDetail(caller.userId, id));
});

export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  await removeCheckpoint(caller.userId, id);
  return new Response(null, { status: 204 });
});
