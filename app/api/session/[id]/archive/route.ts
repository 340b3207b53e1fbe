import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { archiveSession } from "@/lib/chat/archive";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Archives the session, keeping what it established as a memory. */
export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
  return json({ memory: await archiveSession(caller.userId, id) }, 201);
});
