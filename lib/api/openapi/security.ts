import "server-only";
import { scopeOf, type EndpointSpec } from "@/lib/contract/endpoint";
import type { SecurityRequirement, SecuritySchemeObject } from "./types";

export const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  supabaseToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "SaaS mode: a Supabase Auth access token, `Authorization: Bearer <JWT>`, verified against the project's JWKS (signature, expiry, audience `authenticated`, issuer). Local mode needs no credentials at all.",
  },
  supabaseSession: {
    type: "apiKey",
    in: "cookie",
    name: "sb-<project-ref>-auth-token",
    description:
      "SaaS mode, in the browser: the Supabase session cookie set at sign-in (long ones are split into `.0`, `.1`, … chunks). Writes made with it must be JSON and same-origin.",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The operator's metrics token, `Authorization: Bearer <THREADKEEPER_METRICS_TOKEN>`, for a Prometheus scraper: the only credential GET /api/metrics takes in SaaS mode. Compared in constant time; a wrong one gets 401 `invalid_metrics_token`.",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "tk_live_…",
    description:
      "An API key, `Authorization: Bearer tk_live_…`, acting as its owner in either mode and from any origin. Scopes: `read` (GET routes), `write` (everything else, sends included), `admin` (keys and settings; it covers the other two). Each operation names the one it needs. A key beyond its scope gets 403 `insufficient_scope`; a malformed, unknown, revoked or expired key 401 `invalid_api_key`.",
  },
};

/**
 * Any one of the user's three; a key needs the operation's scope. A public endpoint needs none;
 * an operator's takes the metrics token, or in local mode a key of its scope.
 */
export function securityOf(op: EndpointSpec): SecurityRequirement[] {
  if (op.public) return [];
  if (op.operator) return [{ metricsToken: [] }, { apiKey: [scopeOf(op)] }];
  return [{ supabaseToken: [] }, { supabaseSession: [] }, { apiKey: [scopeOf(op)] }];
}
