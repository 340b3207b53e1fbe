import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { saveSystemPrompt, sessionSystemPrompt } from "@/lib/operations/preferences";

export const dynamic = "force-dynamic";

export const GET = route(api.getSystemPrompt, async ({ params, caller }) => json(await sessionSystemPrompt(caller.userId, params.id)));

export const PUT = route(api.putSystemPrompt, async ({ params, body, caller }) => json(await saveSystemPrompt(caller.userId, params.id, body)));
