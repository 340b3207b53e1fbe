import { z } from "zod";
import { count, described, named, timestamp, uuidString } from "./meta";

/** What an API key may do: `read` for GET, `write` for what changes data, `admin` for keys and settings. */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** Threadkeeper's own tools an API caller can have offered to Claude (the `threadkeeper-tools` header, a key's `tools`). */
export const API_TOOLS = ["recall", "canvas"] as const;
export type ApiTool = (typeof API_TOOLS)[number];

export const keyTools = described(
  z.array(z.enum(API_TOOLS)).max(API_TOOLS.length).nullable(),
  "Which of Threadkeeper's own tools requests with this key offer Claude in the drop-in and the OpenAI-compatible endpoint: `recall` (searching condensed turns and other sessions), `canvas`; `[]` for none. Null: the session's own settings (recall only for a session an API request creates). A request's `threadkeeper-tools` header wins.",
);

/** The scope an endpoint needs when its descriptor does not name one. */
export function scopeForMethod(method: string): Scope {
  return method === "GET" || method === "HEAD" ? "read" : "write";
}

/** What a webhook can subscribe to. */
export const WEBHOOK_EVENTS = [
  "compaction.applied",
  "compaction.failed",
  "checkpoint.created",
  "context.threshold_crossed",
  "memory.saved",
  "session.recovered",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Whether an audit action is also an event integrations can subscribe to. */
export function isWebhookEvent(action: string): action is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(action);
}

export const auditEvent = named(
  "AuditEvent",
  z.object({
    id: uuidString(),
    action: described(z.string(), "Dotted: compaction.applied, checkpoint.created, session.deleted, auth.signed_in, ..."),
    occurred_at: timestamp(),
    actor: z.object({ type: z.enum(["user", "key", "system"]), id: z.string().nullable(), name: z.string().nullable() }),
    target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
    session: described(
      z.object({ id: uuidString(), title: z.string() }).nullable(),
      "The session the event concerns (its target, or where it happened), while it exists.",
    ),
    request_id: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  }),
  "One context operation, written in the operation's own transaction.",
);

export const auditPage = named(
  "AuditPage",
  z.object({ events: z.array(auditEvent), next_cursor: described(z.string().nullable(), "Pass as `cursor` for the next page; null at the end.") }),
);

export const webhook = named(
  "Webhook",
  z.object({ id: uuidString(), url: z.string(), events: z.array(z.string()), created_at: timestamp() }),
);

export const createdWebhook = named(
  "CreatedWebhook",
  z.object({ id: uuidString(), url: z.string(), events: z.array(z.string()), created_at: timestamp(), secret: described(z.string(), "The signing secret; shown only here.") }),
);

export const delivery = named(
  "WebhookDelivery",
  z.object({
    id: uuidString(),
    webhook_id: uuidString(),
    event: z.string(),
    status: z.enum(["pending", "delivering", "delivered", "failed"]),
    attempts: count(),
    next_attempt_at: timestamp(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    created_at: timestamp(),
    delivered_at: timestamp().nullable(),
    payload: described(
      z.object({ id: uuidString(), event: z.string(), created_at: z.string(), data: z.record(z.string(), z.unknown()) }),
      "The body as sent (or to be sent).",
    ),
  }),
);

export const apiKey = named(
  "ApiKey",
  z.object({
    id: uuidString(),
    name: z.string(),
    prefix: described(z.string(), "`tk_live_` and the first characters of the key, to tell keys apart."),
    scopes: z.array(z.enum(SCOPES)),
    tools: keyTools,
    created_at: timestamp(),
    expires_at: timestamp().nullable(),
    last_used_at: timestamp().nullable(),
    revoked_at: timestamp().nullable(),
    status: z.enum(["active", "expired", "revoked"]),
  }),
);

export const createdApiKey = named(
  "CreatedApiKey",
  z.object({ key: apiKey, secret: described(z.string(), "The whole key (`tk_live_…`); shown only in this answer.") }),
);

export type AuditEventJson = z.infer<typeof auditEvent>;
export type AuditPageJson = z.infer<typeof auditPage>;
export type WebhookJson = z.infer<typeof webhook>;
export type CreatedWebhookJson = z.infer<typeof createdWebhook>;
export type DeliveryJson = z.infer<typeof delivery>;
export type ApiKeyJson = z.infer<typeof apiKey>;
export type CreatedApiKeyJson = z.infer<typeof createdApiKey>;
