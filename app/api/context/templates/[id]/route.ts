import { noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { removeTemplate } from "@/lib/operations/templates";

export const dynamic = "force-dynamic";

export const DELETE = route(api.deleteTemplate, async ({ params, caller }) => {
  await removeTemplate(caller.userId, params.id);
  return noContent();
});
