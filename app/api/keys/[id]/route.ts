import { noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { revokeKey } from "@/lib/keys";

export const dynamic = "force-dynamic";

export const DELETE = route(api.revokeApiKey, async ({ params, caller }) => {
  await revokeKey(caller.userId, params.id);
  return noContent();
});
