import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { resumeSession } from "@/lib/operations/recovery";

export const dynamic = "force-dynamic";

export const POST = route(api.resumeSession, async ({ params, caller }) => json(await resumeSession(caller.userId, params.id)));
