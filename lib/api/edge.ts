// The edge every request passes, in both modes: which Host names are served (against DNS
// rebinding), the CSRF rule for browser writes, and the security headers. Pure functions of
// the request, so they cost microseconds and the middleware and route handlers share them.
import type { AuthMethod } from "@/lib/auth";
import { AppError } from "@/lib/errors";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export interface HostPolicy {
  /** Local mode serves loopback only (plus `extra`); SaaS mode restricts only when `extra` is set. */
  local: boolean;
  extra: string[];
}

export function hostPolicy(local: boolean, allowedHosts: string | undefined): HostPolicy {
  const extra = (allowedHosts ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return { local, extra };
}

// A Host header is a name or a bracketed IPv6 address, and an optional port; nothing else.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

/** Whether a Host header names this server: `[::1]:3000`, `localhost`, `example.com:8443` … */
export function isAllowedHost(host: string | null, policy: HostPolicy): boolean {
  if (!policy.local && policy.extra.length === 0) return true;
  const full = (host ?? "").trim().toLowerCase();
  const match = HOST.exec(full);
  if (!match) return false;
  const hostname = match[1];
  return LOOPBACK.includes(hostname) || policy.extra.includes(hostname) || policy.extra.includes(full);
}

/** The Host a request was sent to; a Request built in-process (tests, scripts) has only its URL. */
export function requestHost(req: Request): string {
  return req.headers.get("host") ?? new URL(req.url).host;
}

export function assertAllowedHost(host: string | null, policy: HostPolicy): void {
  if (!isAllowedHost(host, policy)) {
    throw new AppError(403, "forbidden_host", "This server does not answer to that host name.", {
      host,
      hint: "Add it to THREADKEEPER_ALLOWED_HOSTS if it is yours.",
    });
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const csrf = (message: string, details?: object) => new AppError(403, "csrf_rejected", message, details);

/**
 * A write authenticated by the browser's cookie (or local mode's implicit user) must be
 * JSON and come from this origin: a form or a fetch from another site can send a cookie
 * along but cannot send `application/json` cross-origin without a CORS preflight this server
 * never grants, and browsers name the sender in Origin and Sec-Fetch-Site. Requests with
 * neither header are not from a browser page (curl, scripts) and carry no ambient victim.
 * A verified bearer token or API key is proof in itself (a browser never attaches one on its
 * own) and is exempt.
 */
export function assertSameOriginWrite(req: Request, via: AuthMethod, body: "json" | "multipart" = "json"): void {
  if (SAFE_METHODS.has(req.method) || via === "bearer" || via === "key") return;
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  // An upload is multipart, which a form on another site can send too: for it the Origin and
  // Sec-Fetch-Site checks below are the whole defence (every current browser sends Origin with a
  // cross-origin POST, a form's included).
  const wanted = body === "multipart" ? "multipart/form-data" : "application/json";
  if (type !== wanted) {
    throw csrf(
      body === "multipart" ? "Uploads must be multipart/form-data." : "Requests that change data must be JSON: send 'content-type: application/json'.",
      { content_type: type || null },
    );
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") {
    throw csrf("Cross-site requests cannot change data here.", { sec_fetch_site: site });
  }
  const origin = req.headers.get("origin");
  if (origin !== null && !sameHost(origin, req.headers.get("x-forwarded-host") ?? requestHost(req))) {
    throw csrf("Requests from another origin cannot change data here.", { origin });
  }
}

function sameHost(origin: string, host: string | null): boolean {
  if (origin === "null" || !host) return false;
  try {
    // Scheme is not compared: behind a TLS-terminating proxy the app itself sees http.
    return new URL(origin).host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}
