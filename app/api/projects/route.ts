import { json, parseBody, route } from "@/lib/api/http";
import { projects, projectSchema } from "@/lib/operations/projects";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  return json({ projects: await projects.list(caller.userId) });
});

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, projectSchema, 4 * 1024);
  return json({ project: await projects.create(caller.userId, body.name) }, 201);
});
