import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { searchMemories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const POST = route(api.searchMemories, async ({ body, caller }) => {
  const filter = { projectId: body.project_id, tags: body.tags, from: body.from, to: body.to, kind: body.kind };
  return json({ memories: await searchMemories(caller.userId, body.query, filter, body.limit) });
});
