import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { restoreCheckpoint } from "@/lib/chat/checkpoints";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  return json(await restoreCheckpoint(caller.userId, id), 201);
});
