import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { requestStop } from "@/lib/operations/stop";

export const dynamic = "force-dynamic";

export const POST = route(api.stopReply, async ({ params, caller }) => json(await requestStop(caller.userId, params.id), 202));
