import { json, parseBody, route } from "@/lib/api/http";
import { saveCheckpoint, saveSchema } from "@/lib/operations/checkpoints";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, saveSchema, 16 * 1024);
  return json({ checkpoint: await saveCheckpoint(caller.userId, body) }, 201);
});
