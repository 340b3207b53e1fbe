// Creating, listing and deleting a user's webhooks, and their deliveries.
import "server-only";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import type { DeliveryJson, WebhookJson } from "@/lib/contract";
import { audit } from "@/lib/audit/record";
import { authMode } from "@/lib/mode";
import { withUser } from "@/lib/db";
import { deleteWebhookRow, insertWebhook, listDeliveries, listWebhookRows, webhookExists, type WebhookRow } from "@/lib/db/webhooks";
import { badRequest, notFound } from "@/lib/errors";
import { isPublicAddress } from "./addresses";
import { createWebhookSchema, deliveriesQuery } from "@/lib/contract/requests";

/**
 * In SaaS mode the server posts to whatever a user names, so only https to a public host: no
 * localhost, no special-purpose address written as one (see addresses.ts). A name is checked
 * at each delivery, on the address it resolves to then (deliver.ts). Local mode is your own
 * machine: anything http(s) goes, 127.0.0.1 receivers included.
 */
function checkUrl(raw: string): void {
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badRequest("Invalid 'url': use http or https", { url: raw });
  if (authMode() === "local") return;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const privateHost =
    host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || (isIP(host) !== 0 && !isPublicAddress(host));
  if (url.protocol !== "https:" || privateHost) {
    throw badRequest("Invalid 'url': webhooks go to https addresses on the public internet", { url: raw });
  }
}

export async function createWebhook(userId: string, input: z.infer<typeof createWebhookSchema>): Promise<WebhookJson & { secret: string }> {
  checkUrl(input.url);
  const secret = input.secret ?? `whsec_${randomBytes(24).toString("base64url")}`;
  return withUser(userId, async (tx) => {
    const row = await insertWebhook(tx, userId, { url: input.url, events: [...new Set(input.events)], secret });
    await audit(tx, userId, { action: "webhook.created", target: { type: "webhook", id: row.id }, metadata: { url: row.url, events: row.events } });
    return { ...webhookJson(row), secret };
  });
}

export async function listWebhooks(userId: string): Promise<WebhookJson[]> {
  const rows = await withUser(userId, (tx) => listWebhookRows(tx, userId));
  return rows.map(webhookJson);
}

export async function deleteWebhook(userId: string, id: string): Promise<void> {
  await withUser(userId, async (tx) => {
    if (!(await deleteWebhookRow(tx, userId, id))) throw notFound("Webhook", id);
    await audit(tx, userId, { action: "webhook.deleted", target: { type: "webhook", id } });
  });
}

export async function webhookDeliveries(userId: string, webhookId: string, q: z.infer<typeof deliveriesQuery>): Promise<DeliveryJson[]> {
  return withUser(userId, async (tx) => {
    if (!(await webhookExists(tx, userId, webhookId))) throw notFound("Webhook", webhookId);
    const rows = await listDeliveries(tx, userId, webhookId, { status: q.status ?? null, limit: q.limit });
    return rows.map((r) => ({
      ...r,
      next_attempt_at: r.next_attempt_at.toISOString(),
      created_at: r.created_at.toISOString(),
      delivered_at: r.delivered_at?.toISOString() ?? null,
    }));
  });
}

function webhookJson(r: WebhookRow): WebhookJson {
  return { id: r.id, url: r.url, events: r.events, created_at: r.created_at.toISOString() };
}
