import { noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { deleteWebhook } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

export const DELETE = route(api.deleteWebhook, async ({ params, caller }) => {
  await deleteWebhook(caller.userId, params.id);
  return noContent();
});
