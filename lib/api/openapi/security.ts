import type { Operation, Scope } from "./registry";
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
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "tk_live_…",
    description:
      "An API key, `Authorization: Bearer tk_live_…`, acting as its owner in either mode and from any origin. Scopes: `read` (GET routes), `write` (everything that changes data, sends included), `admin` (keys and settings). A key beyond its scope gets 403; an unknown, revoked or expired key 401.",
  },
};

export function scopeOf(op: Operation): Scope {
  return op.scope ?? (op.method === "GET" ? "read" : "write");
}

/** Any one of the three; a key needs the operation's scope. */
export function securityOf(op: Operation): SecurityRequirement[] {
  return [{ supabaseToken: [] }, { supabaseSession: [] }, { apiKey: [scopeOf(op)] }];
}
