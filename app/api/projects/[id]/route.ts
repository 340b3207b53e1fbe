import { json, parseBody, parseParams, route } from "@/lib/api/http";
import { idParams as params } from "@/lib/contract/requests";
import { projects, projectSchema } from "@/lib/operations/projects";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const PATCH = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  const body = await parseBody(req, projectSchema, 4 * 1024);
  return json({ project: await projects.rename(caller.userId, id, body.name) });
});

/** Sessions of a deleted project stay, without a project. */
export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  await projects.remove(caller.userId, id);
  return new Response(null, { status: 204 });
});
