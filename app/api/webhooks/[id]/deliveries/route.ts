import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { webhookDeliveries } from "@/lib/webhooks/manage";

export const dynamic = "force-dynamic";

export const GET = route(api.listWebhookDeliveries, async ({ params, query, caller }) => json({ deliveries: await webhookDeliveries(caller.userId, params.id, query) }));
