import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { checkpointDetail, removeCheckpoint } from "@/lib/chat/checkpoints";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };
const params = z.object({ id: uuid });

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  return json(await checkpointDetail(caller.userId, id));
});

export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  await removeCheckpoint(caller.userId, id);
  return new Response(null, { status: 204 });
});
