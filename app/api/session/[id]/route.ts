import { json, parseBody, parseParams, route } from "@/lib/api/http";
import { idParams as params } from "@/lib/contract/requests";
import { patchSessionSchema, removeSession, sessionDetail, updateSession } from "@/lib/operations/sessions";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The session with its checkpoints and fork relations. */
export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  return json(await sessionDetail(caller.userId, id));
});

/** Rename, or assign to a project (`project_id: null` removes it from its project). */
export const PATCH = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  const body = await parseBody(req, patchSessionSchema, 16 * 1024);
  return json({ session: await updateSession(caller.userId, id, body) });
});

/** Deletes the session with its messages, compactions and checkpoints. */
export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id } = parseParams(await ctx.params, params);
  await removeSession(caller.userId, id);
  return new Response(null, { status: 204 });
});
