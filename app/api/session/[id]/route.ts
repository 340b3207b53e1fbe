import { z } from "zod";
import { getCaller } from "@/lib/auth";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { getSessionJson } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, ctx) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  const caller = await getCaller(req);
  return json({ session: await getSessionJson(caller.userId, id) });
});
