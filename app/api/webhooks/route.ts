import { json, parseBody, route } from "@/lib/api/http";
import { createWebhook, createWebhookSchema, listWebhooks } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

/** Register a webhook; the signing secret is in this answer only. */
export const POST = route(async (req, _ctx, caller) =>
  json({ webhook: await createWebhook(caller.userId, await parseBody(req, createWebhookSchema, 8 * 1024)) }, 201),
);

export const GET = route(async (_req, _ctx, caller) => json({ webhooks: await listWebhooks(caller.userId) }));
