import "server-only";
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { AppError, bearerChallenge } from "@/lib/errors";
import { log } from "@/lib/log";
import type { SupabaseAuthConfig } from "@/lib/mode";

export interface VerifiedToken {
  userId: string;
  email: string | null;
  /** The Supabase sign-in this token belongs to (its `session_id` claim), for the audit log. */
  signInId: string | null;
}

// One key set per JWKS URL for the process (on globalThis so Next.js's duplicated module
// graphs share it): keys are fetched once, kept 10 minutes, and fetched again when a token
// names a kid the cache lacks, at most once a second so forged kids cannot flood the server.
const keySets = ((globalThis as { __threadkeeperJwks?: Map<string, JWTVerifyGetKey> }).__threadkeeperJwks ??= new Map());

function keySet(jwksUrl: string): JWTVerifyGetKey {
  let set = keySets.get(jwksUrl);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUrl), { cacheMaxAge: 10 * 60_000, cooldownDuration: 1_000, timeoutDuration: 5_000 });
    keySets.set(jwksUrl, set);
  }
  return set;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const unauthorized = (code: string, message: string) =>
  new AppError(401, code, message, undefined, bearerChallenge("invalid_token", message));

/**
 * Verifies a Supabase access token locally: signature (ES256 or RS256, from the project's
 * JWKS), expiry, audience `authenticated` and issuer `${SUPABASE_URL}/auth/v1`.
 */
export async function verifyAccessToken(token: string, cfg: SupabaseAuthConfig): Promise<VerifiedToken> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keySet(cfg.jwksUrl), {
      issuer: cfg.issuer,
      audience: "authenticated",
      algorithms: ["ES256", "RS256"],
      requiredClaims: ["sub", "exp"],
    }));
  } catch (err) {
    throw verificationError(err);
  }
  if (typeof payload.sub !== "string" || !UUID.test(payload.sub)) throw unauthorized("invalid_token", "The access token names no user.");
  return {
    userId: payload.sub.toLowerCase(),
    email: typeof payload.email === "string" ? payload.email : null,
    signInId: typeof payload.session_id === "string" && UUID.test(payload.session_id) ? payload.session_id : null,
  };
}

function verificationError(err: unknown): AppError {
  if (err instanceof errors.JWTExpired) return unauthorized("token_expired", "The access token has expired; sign in again or refresh it.");
  // The key set could not be fetched: the auth server is unreachable, not the caller at fault.
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || !(err instanceof errors.JOSEError)) {
    log.error("[threadkeeper] cannot verify tokens: fetching the JWKS failed", err instanceof Error ? err.message : err);
    return new AppError(503, "auth_unavailable", "Sign-in cannot be checked right now; please retry.", undefined, { "Retry-After": "5" });
  }
  return unauthorized("invalid_token", "The access token is not valid.");
}
