import { z } from "zod";
import { idParams } from "@/lib/contract/requests";
import { auditQuery } from "@/lib/audit/query";
import { createKeySchema } from "@/lib/keys";
import { createWebhookSchema, deliveriesQuery } from "@/lib/webhooks/manage";
import type { OperationGroup } from "../registry";
import { apiKey, auditPage, createdApiKey, createdWebhook, delivery, webhook } from "@/lib/contract/integrations";

export const audit: OperationGroup = {
  tag: "Audit",
  description: "One append-only event per context operation, with actor, target, request id, IP and user agent.",
  operations: [
    {
      method: "GET",
      path: "/api/audit",
      operationId: "listAuditEvents",
      summary: "Your audit log, newest first",
      description: "`action` is exact or a prefix such as `compaction.*`; page on with `next_cursor`.",
      query: auditQuery,
      responses: { 200: { description: "A page of events.", json: auditPage } },
    },
  ],
};

export const webhooks: OperationGroup = {
  tag: "Webhooks",
  description:
    "Signed deliveries of compaction.applied, compaction.failed, checkpoint.created, context.threshold_crossed, memory.saved and session.recovered, retried with backoff.",
  operations: [
    {
      method: "POST",
      path: "/api/webhooks",
      operationId: "createWebhook",
      summary: "Register a webhook; its signing secret is in this answer only",
      body: createWebhookSchema,
      responses: { 201: { description: "The webhook with its secret.", json: z.object({ webhook: createdWebhook }) } },
    },
    {
      method: "GET",
      path: "/api/webhooks",
      operationId: "listWebhooks",
      summary: "Your webhooks (without secrets)",
      responses: { 200: { description: "Oldest first.", json: z.object({ webhooks: z.array(webhook) }) } },
    },
    {
      method: "DELETE",
      path: "/api/webhooks/{id}",
      operationId: "deleteWebhook",
      summary: "Delete a webhook and its deliveries",
      params: idParams,
      responses: { 204: { description: "Deleted." } },
    },
    {
      method: "GET",
      path: "/api/webhooks/{id}/deliveries",
      operationId: "listWebhookDeliveries",
      summary: "A webhook's deliveries with their status, attempts and last answer",
      params: idParams,
      query: deliveriesQuery,
      responses: { 200: { description: "Newest first.", json: z.object({ deliveries: z.array(delivery) }) } },
    },
  ],
};

export const keys: OperationGroup = {
  tag: "API keys",
  description: "Keys for integrations: `Authorization: Bearer tk_live_…`, acting as you within their scopes. All need `admin`.",
  operations: [
    {
      method: "POST",
      path: "/api/keys",
      operationId: "createApiKey",
      summary: "Create a key; its secret is in this answer only",
      scope: "admin",
      body: createKeySchema,
      responses: { 201: { description: "The key and its secret.", json: createdApiKey } },
    },
    {
      method: "GET",
      path: "/api/keys",
      operationId: "listApiKeys",
      summary: "Your keys, without their secrets",
      scope: "admin",
      responses: { 200: { description: "Your keys.", json: z.object({ keys: z.array(apiKey) }) } },
    },
    {
      method: "DELETE",
      path: "/api/keys/{id}",
      operationId: "revokeApiKey",
      summary: "Revoke a key at once",
      scope: "admin",
      params: idParams,
      responses: { 204: { description: "Revoked." } },
    },
  ],
};
