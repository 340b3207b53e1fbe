// Who may call an operator's endpoint (GET /api/metrics). Its figures are process-wide, so in
// SaaS mode no user's credential may open it: every user can mint an admin key for their own
// account. The operator sets THREADKEEPER_METRICS_TOKEN and the scraper presents exactly that;
// without it a SaaS instance keeps the endpoint shut rather than falling back to user keys.
// Local mode serves this machine only, so there anyone may, as before.
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { E } from "@/lib/contract/error-cases";
import { env } from "@/lib/env";
import { AppError, bearerChallenge } from "@/lib/errors";

/** How an operator's request is let in: by the token (no caller at all), or as a caller route() checks. */
export type OperatorAccess = "token" | "caller";

/**
 * Decides from the Authorization header alone, before any caller is looked up, so a scrape by
 * token costs no database work. Throws 401 `invalid_metrics_token` for anything that is not the
 * token where the token is the only way in (SaaS mode with the token set), and for a bearer that
 * is neither the token nor an API key in local mode, so a misconfigured scraper hears about it.
 */
export function operatorAccess(req: Request, localMode: boolean): OperatorAccess {
  const token = env().THREADKEEPER_METRICS_TOKEN;
  if (token === undefined) return "caller";
  const presented = bearerOf(req.headers.get("authorization"));
  if (presented !== null && sameSecret(presented, token)) return "token";
  // Local mode with the token set stays as it was for everything but a wrong token: no
  // credentials, or an API key (held to its scope by route()).
  if (localMode && (presented === null || presented.startsWith("tk_"))) return "caller";
  const message = "This endpoint takes only the operator's metrics token: 'Authorization: Bearer <THREADKEEPER_METRICS_TOKEN>'.";
  throw new AppError(E.invalidMetricsToken.status, E.invalidMetricsToken.code, message, undefined, bearerChallenge("invalid_token", message, { realm: "metrics" }));
}

/**
 * Answered to any caller without the token in SaaS mode (admin API keys included), once its
 * credentials were verified: it says what the operator must set.
 */
export function metricsTokenRequired(): AppError {
  return new AppError(
    E.metricsTokenRequired.status,
    E.metricsTokenRequired.code,
    "Metrics are for whoever runs the service: set THREADKEEPER_METRICS_TOKEN on the server and scrape with 'Authorization: Bearer <that token>'. User credentials, admin API keys included, are not accepted.",
  );
}

function bearerOf(header: string | null): string | null {
  const match = header === null ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** Compares digests, so the time taken says nothing about the token's length or any prefix of it. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
