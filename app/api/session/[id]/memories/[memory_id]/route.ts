import { json, parseParams, route } from "@/lib/api/http";
import { sessionMemoryParams as params } from "@/lib/contract/requests";
import { setLoadedDropped } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; memory_id: string }> };

/** Drops a loaded memory from this session's context. */
export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { id, memory_id } = parseParams(await ctx.params, params);
  return json({ loaded: await setLoadedDropped(caller.userId, id, memory_id, true) });
});

/** Brings a dropped memory back into this session's context. */
export const POST = route<Ctx>(async (req, ctx, caller) => {
  const { id, memory_id } = parseParams(await ctx.params, params);
  return json({ loaded: await setLoadedDropped(caller.userId, id, memory_id, false) });
});
