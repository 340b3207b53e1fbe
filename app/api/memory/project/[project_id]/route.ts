import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const GET = route(api.projectMemories, async ({ params, caller }) => json({ memories: await memories.ofProject(caller.userId, params.project_id) }));
