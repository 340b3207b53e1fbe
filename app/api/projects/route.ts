import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { projects } from "@/lib/operations/projects";

export const dynamic = "force-dynamic";

export const GET = route(api.listProjects, async ({ caller }) => json({ projects: await projects.list(caller.userId) }));

export const POST = route(api.createProject, async ({ body, caller }) => json({ project: await projects.create(caller.userId, body.name) }, 201));
