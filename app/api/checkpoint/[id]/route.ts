import { json, noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { checkpointDetail, removeCheckpoint } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.getCheckpoint, async ({ params, caller }) => json(await checkpointDetail(caller.userId, params.id)));

export const DELETE = route(api.deleteCheckpoint, async ({ params, caller }) => {
  await removeCheckpoint(caller.userId, params.id);
  return noContent();
});
