import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { saveDraft, sessionDraft } from "@/lib/operations/preferences";

export const dynamic = "force-dynamic";

export const GET = route(api.getDraft, async ({ params, caller }) => json({ draft: await sessionDraft(caller.userId, params.id) }));

export const PUT = route(api.putDraft, async ({ params, body, caller }) => json({ draft: await saveDraft(caller.userId, params.id, body) }));
