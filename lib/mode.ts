import { authEnv, type AuthEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** Supabase Auth as the server and the browser see it (SaaS mode). */
export interface SupabaseAuthConfig {
  /** The project URL: tokens are issued by `${url}/auth/v1` and verified against its JWKS. */
  url: string;
  /** The project URL as the browser reaches it (usually the same). */
  browserUrl: string;
  publishableKey: string;
  issuer: string;
  jwksUrl: string;
  /** @supabase/ssr's session cookie name, shared by the browser, the middleware and the routes. */
  storageKey: string;
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

/**
 * SaaS mode is on when a Supabase URL is configured (either name: a project set up from
 * Supabase's templates has only the NEXT_PUBLIC_ one, and must not fall back to the
 * sign-in-free local mode); null means local mode.
 */
export function supabaseAuth(): SupabaseAuthConfig | null {
  const e = authEnv();
  // Derived once per configuration: this runs on every request.
  if (derived?.from !== e) derived = { from: e, config: derive(e) };
  return derived.config;
}

let derived: { from: AuthEnv; config: SupabaseAuthConfig | null } | undefined;

function derive(e: AuthEnv): SupabaseAuthConfig | null {
  const configured = e.SUPABASE_URL ?? e.NEXT_PUBLIC_SUPABASE_URL;
  if (!configured) return null;
  const publishableKey = e.SUPABASE_PUBLISHABLE_KEY ?? e.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY;
  if (!publishableKey) {
    throw new AppError(500, "auth_misconfigured", "SUPABASE_URL is set but SUPABASE_PUBLISHABLE_KEY is not; sign-in cannot work.");
  }
  const url = trimSlash(configured);
  const browserUrl = trimSlash(e.NEXT_PUBLIC_SUPABASE_URL ?? url);
  return {
    url,
    browserUrl,
    publishableKey,
    issuer: `${url}/auth/v1`,
    jwksUrl: `${url}/auth/v1/.well-known/jwks.json`,
    // supabase-js's own default, derived from the URL the browser client is created with.
    storageKey: `sb-${new URL(browserUrl).hostname.split(".")[0]}-auth-token`,
  };
}

export type AuthMode = "local" | "supabase";

export function authMode(): AuthMode {
  return supabaseAuth() ? "supabase" : "local";
}
