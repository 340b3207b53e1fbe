import { json, noContent, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { projects } from "@/lib/operations/projects";

export const dynamic = "force-dynamic";

export const PATCH = route(api.renameProject, async ({ params, body, caller }) => json({ project: await projects.rename(caller.userId, params.id, body.name) }));

export const DELETE = route(api.deleteProject, async ({ params, caller }) => {
  await projects.remove(caller.userId, params.id);
  return noContent();
});
