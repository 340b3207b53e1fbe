import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { createWebhook, listWebhooks } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

export const POST = route(api.createWebhook, async ({ body, caller }) => json({ webhook: await createWebhook(caller.userId, body) }, 201));

export const GET = route(api.listWebhooks, async ({ caller }) => json({ webhooks: await listWebhooks(caller.userId) }));
