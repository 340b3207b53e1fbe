import { z } from "zod";
import { json, parseQuery, route } from "@/lib/api/http";
import { recentCheckpointList } from "@/lib/chat/checkpoints";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }).strict());
  return json({ checkpoints: await recentCheckpointList(caller.userId, q.limit) });
});
