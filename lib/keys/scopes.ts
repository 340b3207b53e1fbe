// What an API key may do. Every API route needs exactly one scope: `read` for GET (and HEAD),
// `write` for anything that changes data (sends included), `admin` for managing keys and
// changing context settings. An endpoint's descriptor says so; without one the method decides
// (scopeForMethod in lib/contract). Browser, access-token and local-mode callers hold every scope.
import "server-only";
import { SCOPES, type Scope } from "@/lib/contract/integrations";
import { AppError, bearerChallenge } from "@/lib/errors";

/**
 * Whether a key's scopes cover what a route needs. `admin` covers everything: a key that can
 * create keys could give itself any other scope anyway. `read` and `write` are independent, so
 * an integration that only posts (or only reads) gets nothing more.
 */
export function grants(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || scopes.includes("admin");
}

/** Deduplicated, in the canonical order read, write, admin. */
export function normalizeScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}

/** 403 `insufficient_scope` (with RFC 6750's WWW-Authenticate) when a key lacks what a route needs; null scopes: not a key. */
export function requireScope(scopes: readonly Scope[] | null, needed: Scope): void {
  if (scopes === null || grants(scopes, needed)) return;
  const message = `This API key lacks the '${needed}' scope this request needs (it has: ${scopes.join(", ")}).`;
  throw new AppError(403, "insufficient_scope", message, { required_scope: needed, key_scopes: scopes }, bearerChallenge("insufficient_scope", message, { scope: needed }));
}
