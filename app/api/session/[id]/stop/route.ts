import { json, parseParams, route } from "@/lib/api/http";
import { idParams } from "@/lib/contract/requests";
import { requestStop } from "@/lib/operations/stop";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Stops the reply Claude is writing; the partial reply is kept, marked interrupted. */
export const POST = route<Ctx>(async (_req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  return json(await requestStop(caller.userId, id), 202);
});
