import { json, noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { revokeKey, updateKey } from "@/lib/keys";

export const dynamic = "force-dynamic";

export const PATCH = route(api.updateApiKey, async ({ params, body, caller }) => json(await updateKey(caller.userId, params.id, body)));

export const DELETE = route(api.revokeApiKey, async ({ params, caller }) => {
  await revokeKey(caller.userId, params.id);
  return noContent();
});
