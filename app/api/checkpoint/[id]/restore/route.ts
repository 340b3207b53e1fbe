import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { restoreCheckpoint } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const POST = route(api.restoreCheckpoint, async ({ params, caller }) => json(await restoreCheckpoint(caller.userId, params.id), 201));
