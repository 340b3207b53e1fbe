import { z } from "zod";
import { parseParams, route, uuid } from "@/lib/api/http";
import { revokeKey } from "@/lib/keys";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const DELETE = route<Ctx>(
  async (req, ctx, caller) => {
    const { id } = parseParams(await ctx.params, z.object({ id: uuid }));
    await revokeKey(caller.userId, id);
    return new Response(null, { status: 204 });
  },
  { scope: "admin" },
);
