import { json, parseParams, route } from "@/lib/api/http";
import { projectIdParams } from "@/lib/contract/requests";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ project_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { project_id } = parseParams(await ctx.params, projectIdParams);
  return json({ memories: await memories.ofProject(caller.userId, project_id) });
});
