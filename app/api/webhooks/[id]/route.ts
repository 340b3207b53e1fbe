import { z } from "zod";
import { parseParams, route, uuid } from "@/lib/api/http";
import { deleteWebhook } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const DELETE = route<Ctx>(async (_req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  await deleteWebhook(caller.userId, id);
  return new Response(null, { status: 204 });
});
