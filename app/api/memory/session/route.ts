import { json, parseBody, route } from "@/lib/api/http";
import { saveMemory, saveMemorySchema } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, saveMemorySchema, 256 * 1024);
  return json({ memory: await saveMemory(caller.userId, body) }, 201);
});
