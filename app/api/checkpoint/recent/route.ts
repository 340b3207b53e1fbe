import { json, parseQuery, route } from "@/lib/api/http";
import { recentCheckpointsQuery } from "@/lib/contract/requests";
import { recentCheckpointList } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, recentCheckpointsQuery);
  return json({ checkpoints: await recentCheckpointList(caller.userId, q.limit) });
});
