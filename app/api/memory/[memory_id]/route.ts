import { json, noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { memories } from "@/lib/operations/memory";

export const dynamic = "force-dynamic";

export const GET = route(api.getMemory, async ({ params, caller }) => json({ memory: await memories.get(caller.userId, params.memory_id) }));

export const PATCH = route(api.pinMemory, async ({ params, body, caller }) =>
  json({ memory: await memories.pin(caller.userId, params.memory_id, body.pinned) }),
);

export const DELETE = route(api.deleteMemory, async ({ params, caller }) => {
  await memories.remove(caller.userId, params.memory_id);
  return noContent();
});
