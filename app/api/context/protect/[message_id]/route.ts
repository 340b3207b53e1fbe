import { z } from "zod";
import { getCaller } from "@/lib/auth";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { protectMessage } from "@/lib/chat/protect";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ message_id: string }> };
const params = z.object({ message_id: uuid });

export const POST = route<Ctx>(async (req, ctx) => {
  const { message_id } = parseParams(await ctx.params, params);
  const caller = await getCaller(req);
  return json({ message: await protectMessage(caller.userId, message_id, true) });
});

export const DELETE = route<Ctx>(async (req, ctx) => {
  const { message_id } = parseParams(await ctx.params, params);
  const caller = await getCaller(req);
  return json({ message: await protectMessage(caller.userId, message_id, false) });
});
