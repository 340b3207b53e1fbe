import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { resumeSession } from "@/lib/chat/recovery";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  return json(await resumeSession(caller.userId, id));
});
