import { json, parseParams, route } from "@/lib/api/http";
import { idParams } from "@/lib/contract/requests";
import { archiveSession } from "@/lib/operations/archive";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Archives the session, keeping what it established as a memory. */
export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, idParams);
  return json({ memory: await archiveSession(caller.userId, id) }, 201);
});
