import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { archiveSession } from "@/lib/operations/archive";

export const dynamic = "force-dynamic";

export const POST = route(api.archiveSession, async ({ params, caller }) => json({ memory: await archiveSession(caller.userId, params.id) }, 201));
