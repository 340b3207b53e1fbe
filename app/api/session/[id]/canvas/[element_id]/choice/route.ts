import { json, parseBody, parseParams, route } from "@/lib/api/http";
import { canvasElementParams } from "@/lib/contract/requests";
import { choiceSchema, chooseOption } from "@/lib/operations/canvas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; element_id: string }> };

/** The user's answer to a confirmation on the canvas. */
export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id, element_id } = parseParams(await ctx.params, canvasElementParams);
  const { choice } = await parseBody(req, choiceSchema, 4 * 1024);
  return json(await chooseOption(caller.userId, id, element_id, choice));
});
