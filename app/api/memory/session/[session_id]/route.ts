import { z } from "zod";
import { json, parseParams, route, uuid } from "@/lib/api/http";
import { memories } from "@/lib/chat/memory";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ session_id: string }> };

/** Memories saved from this session, and those loaded into it. */
export const GET = route<Ctx>(async (req, ctx, caller) => {
  const { session_id } = parseParams(await ctx.params, z.object({ session_id: uuid }));
  return json(await memories.ofSession(caller.userId, session_id));
});
