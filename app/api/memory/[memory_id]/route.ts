import { json, parseBody, parseParams, route } from "@/lib/api/http";
import { memoryIdParams as params, pinSchema } from "@/lib/contract/requests";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ memory_id: string }> };

export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { memory_id } = parseParams(await ctx.params, params);
  return json({ memory: await memories.get(caller.userId, memory_id) });
});

/** Pin (never expires, ranks higher) or unpin. */
export const PATCH = route<Ctx>(async (req, ctx, caller) => {
  const { memory_id } = parseParams(await ctx.params, params);
  const body = await parseBody(req, pinSchema, 1024);
  return json({ memory: await memories.pin(caller.userId, memory_id, body.pinned) });
});

export const DELETE = route<Ctx>(async (req, ctx, caller) => {
  const { memory_id } = parseParams(await ctx.params, params);
  await memories.remove(caller.userId, memory_id);
  return new Response(null, { status: 204 });
});
