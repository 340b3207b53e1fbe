import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const GET = route(api.sessionMemories, async ({ params, caller }) => json(await memories.ofSession(caller.userId, params.session_id)));
