import { z } from "zod";
import { group } from "../endpoint";
import { auditQuery, createKeySchema, createWebhookSchema, deliveriesQuery, idParams, updateKeySchema } from "../requests";
import { apiKey, auditPage, createdApiKey, createdWebhook, delivery, webhook } from "../integrations";

export const audit = group("Audit", "One append-only event per context operation, with actor, target, request id, IP and user agent.", {
  listAuditEvents: {
    method: "GET",
    path: "/api/audit",
    summary: "Your audit log, newest first",
    description: "`action` is exact or a prefix such as `compaction.*`; page on with `next_cursor`.",
    query: auditQuery,
    responses: { 200: { description: "A page of events.", json: auditPage } },
  },
});

export const webhooks = group("Webhooks", "Signed deliveries of compaction.applied, compaction.failed, checkpoint.created, context.threshold_crossed, memory.saved and session.recovered, retried with backoff.", {
  createWebhook: {
    method: "POST",
    path: "/api/webhooks",
    summary: "Register a webhook; its signing secret is in this answer only",
    body: createWebhookSchema,
    bodyLimit: 8 * 1024,
    responses: { 201: { description: "The webhook with its secret.", json: z.object({ webhook: createdWebhook }) } },
  },
  listWebhooks: {
    method: "GET",
    path: "/api/webhooks",
    summary: "Your webhooks (without secrets)",
    responses: { 200: { description: "Oldest first.", json: z.object({ webhooks: z.array(webhook) }) } },
  },
  deleteWebhook: {
    method: "DELETE",
    path: "/api/webhooks/{id}",
    summary: "Delete a webhook and its deliveries",
    params: idParams,
    responses: { 204: { description: "Deleted." } },
  },
  listWebhookDeliveries: {
    method: "GET",
    path: "/api/webhooks/{id}/deliveries",
    summary: "A webhook's deliveries with their status, attempts and last answer",
    params: idParams,
    query: deliveriesQuery,
    responses: { 200: { description: "Newest first.", json: z.object({ deliveries: z.array(delivery) }) } },
  },
});

export const keys = group("API keys", "Keys for integrations: `Authorization: Bearer tk_live_…`, acting as you within their scopes. All need `admin`.", {
  createApiKey: {
    method: "POST",
    path: "/api/keys",
    summary: "Create a key; its secret is in this answer only",
    scope: "admin",
    body: createKeySchema,
    responses: { 201: { description: "The key and its secret.", json: createdApiKey } },
  },
  listApiKeys: {
    method: "GET",
    path: "/api/keys",
    summary: "Your keys, without their secrets",
    scope: "admin",
    responses: { 200: { description: "Your keys.", json: z.object({ keys: z.array(apiKey) }) } },
  },
  updateApiKey: {
    method: "PATCH",
    path: "/api/keys/{id}",
    summary: "Change which of Threadkeeper's own tools the key's requests offer Claude",
    scope: "admin",
    params: idParams,
    body: updateKeySchema,
    responses: { 200: { description: "The key as it is now.", json: apiKey } },
  },
  revokeApiKey: {
    method: "DELETE",
    path: "/api/keys/{id}",
    summary: "Revoke a key at once",
    scope: "admin",
    params: idParams,
    responses: { 204: { description: "Revoked." } },
  },
});
