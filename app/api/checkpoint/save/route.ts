import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { saveCheckpoint } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const POST = route(api.saveCheckpoint, async ({ body, caller }) => json({ checkpoint: await saveCheckpoint(caller.userId, body) }, 201));
