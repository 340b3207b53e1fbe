import { json, parseBody, route } from "@/lib/api/http";
import { allTemplates, saveTemplate, templateSchema } from "@/lib/operations/templates";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  return json({ templates: await allTemplates(caller.userId) });
});

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, templateSchema, 64 * 1024);
  return json({ template: await saveTemplate(caller.userId, body) }, 201);
});
