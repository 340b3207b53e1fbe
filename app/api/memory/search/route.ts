import { json, parseBody, route } from "@/lib/api/http";
import { searchMemories, searchSchema } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, searchSchema, 16 * 1024);
  const filter = { projectId: body.project_id, tags: body.tags, from: body.from, to: body.to, kind: body.kind };
  return json({ memories: await searchMemories(caller.userId, body.query, filter, body.limit) });
});
