import { json, parseParams, parseQuery, route } from "@/lib/api/http";
import { canvasQuery, idParams } from "@/lib/contract/requests";
import { clearCanvas, getCanvas } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** What is on the session's canvas (or was, at `checkpoint_id`). */
export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  const { checkpoint_id } = parseQuery(req, canvasQuery);
  return json(await getCanvas(caller.userId, id, checkpoint_id));
});

/** The user clears the canvas; Claude is told on its next request. */
export const DELETE = route<Ctx>(async (_req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  return json(await clearCanvas(caller.userId, id));
});
