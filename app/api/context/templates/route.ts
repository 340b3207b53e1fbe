import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { allTemplates, saveTemplate } from "@/lib/operations/templates";

export const dynamic = "force-dynamic";

export const GET = route(api.listTemplates, async ({ caller }) => json({ templates: await allTemplates(caller.userId) }));

export const POST = route(api.saveTemplate, async ({ body, caller }) => json({ template: await saveTemplate(caller.userId, body) }, 201));
