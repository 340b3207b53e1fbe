import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { saveMemory } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const POST = route(api.saveMemory, async ({ body, caller }) => json({ memory: await saveMemory(caller.userId, body) }, 201));
