import { json, parseParams, route } from "@/lib/api/http";
import { canvasElementParams } from "@/lib/contract/requests";
import { removeElement } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; element_id: string }> };

/** The user removes one element; Claude is told on its next request. */
export const DELETE = route<Ctx>(async (_req, ctx, caller) => {
  const { id, element_id } = parseParams(await ctx.params, canvasElementParams);
  return json(await removeElement(caller.userId, id, element_id));
});
