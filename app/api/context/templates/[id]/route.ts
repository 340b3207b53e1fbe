import { parseParams, route } from "@/lib/api/http";
import { idParams } from "@/lib/contract/requests";
import { removeTemplate } from "@/lib/operations/templates";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  await removeTemplate(caller.userId, id);
  return new Response(null, { status: 204 });
});
