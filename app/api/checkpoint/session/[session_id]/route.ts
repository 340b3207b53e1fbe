import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { sessionCheckpoints } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.listSessionCheckpoints, async ({ params, caller }) => json({ checkpoints: await sessionCheckpoints(caller.userId, params.session_id) }));
