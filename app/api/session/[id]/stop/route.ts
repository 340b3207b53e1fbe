import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { requestStop } from "@/lib/chat/stop";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Stops the reply Claude is writing; the partial reply is kept, marked interrupted. */
export const POST = route<Ctx>(async (_req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  return json(await requestStop(caller.userId, id), 202);
});
