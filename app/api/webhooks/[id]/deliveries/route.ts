import { z } from "zod";
import { json, parseParams, parseQuery, route, uuid } from "@/lib/api/http";
import { deliveriesQuery, webhookDeliveries } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The webhook's deliveries, newest first, with their status, attempts and last answer. */
export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  return json({ deliveries: await webhookDeliveries(caller.userId, id, parseQuery(req, deliveriesQuery)) });
});
