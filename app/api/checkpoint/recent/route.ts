import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { recentCheckpointList } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.recentCheckpoints, async ({ query, caller }) => json({ checkpoints: await recentCheckpointList(caller.userId, query.limit) }));
