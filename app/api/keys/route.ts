import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { createKey, listKeys } from "@/lib/keys";

export const dynamic = "force-dynamic";

export const GET = route(api.listApiKeys, async ({ caller }) => json({ keys: await listKeys(caller.userId) }));

// The secret is in this answer only: keep it out of every cache.
export const POST = route(api.createApiKey, async ({ body, caller }) => json(await createKey(caller.userId, body), 201, { "Cache-Control": "no-store" }));
