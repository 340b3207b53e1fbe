import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { memories } from "@/lib/chat/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ project_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { project_id } = parseParams(await ctx.params, z.object({ project_id: uuid }));
  return json({ memories: await memories.ofProject(caller.userId, project_id) });
});
