// Pages only (API routes check everything themselves, see lib/api/http.ts): serve only
// allowed Host names, give each page a fresh CSP nonce, and in SaaS mode keep the Supabase
// session cookie fresh and send signed-out visits to the sign-in page. Redirects are a
// convenience; the data behind every page is guarded by the API's own caller check.
import { randomBytes } from "node:crypto";
import { createServerClient } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import { cookieUser } from "@/lib/auth/session-cookie";
import { supabaseAuth, type SupabaseAuthConfig } from "@/lib/mode";
import { hostPolicy, isAllowedHost } from "@/lib/api/edge";
import { BASE_SECURITY_HEADERS, pageCsp } from "@/lib/api/security-headers";
import { authEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

export const config = {
  // Static files skip it: the icons and the web manifest (public/, listed in next.config.ts
  // too, which gives them the security headers) must load on the sign-in page as well.
  // Next.js reads this literal at build time, so the list cannot be imported.
  matcher: [
    "/((?!api/|_next/static/|_next/image|favicon\\.ico|icon\\.svg|icon-192\\.png|icon-512\\.png|icon-maskable-512\\.png|apple-touch-icon\\.png|manifest\\.webmanifest).*)",
  ],
  runtime: "nodejs",
};

/** Pages a signed-out visitor may open. */
const PUBLIC_PAGES = new Set(["/login", "/signup", "/reset-password", "/update-password"]);
/** Pages a signed-in user has no use for. */
const SIGNED_OUT_ONLY = new Set(["/login", "/signup"]);

type CookieToSet = { name: string; value: string; options: Parameters<NextResponse["cookies"]["set"]>[2] };

export async function middleware(request: NextRequest): Promise<NextResponse> {
  const cfg = supabaseAuth();
  if (!isAllowedHost(request.headers.get("host"), hostPolicy(!cfg, authEnv().THREADKEEPER_ALLOWED_HOSTS))) {
    return secure(new NextResponse("This server does not answer to that host name.", { status: 403, headers: { "content-type": "text/plain" } }));
  }
  const refreshed: CookieToSet[] = [];
  let redirect: string | null = null;
  if (cfg) {
    const signedIn = await refreshSession(request, cfg, refreshed);
    const path = request.nextUrl.pathname;
    const here = path + request.nextUrl.search;
    if (!signedIn && !PUBLIC_PAGES.has(path)) redirect = here === "/" ? "/login" : `/login?next=${encodeURIComponent(here)}`;
    else if (signedIn && SIGNED_OUT_ONLY.has(path)) redirect = "/";
  }
  const nonce = randomBytes(16).toString("base64");
  const csp = pageCsp({ nonce, dev: process.env.NODE_ENV !== "production", connect: cfg ? [cfg.browserUrl] : [] });
  let res: NextResponse;
  if (redirect) {
    // Next.js writes loopback addresses as "localhost" here: sign in at localhost, not 127.0.0.1.
    res = NextResponse.redirect(new URL(redirect, request.url));
    res.headers.set("Cache-Control", "no-store");
  } else {
    // Next.js reads the nonce from the request's policy and puts it on its own scripts.
    const headers = new Headers(request.headers);
    headers.set("content-security-policy", csp);
    res = NextResponse.next({ request: { headers } });
  }
  for (const c of refreshed) res.cookies.set(c.name, c.value, c.options);
  res.headers.set("Content-Security-Policy", csp);
  return secure(res);
}

/**
 * Refreshes an expiring session (rotating its refresh token into the response's cookies and
 * the request's, so the page renders with the new one) and says whether a verified user is
 * signed in. When the auth server cannot be reached the page is let through: its API calls
 * answer for themselves.
 */
async function refreshSession(request: NextRequest, cfg: SupabaseAuthConfig, refreshed: CookieToSet[]): Promise<boolean> {
  const supabase = createServerClient(cfg.url, cfg.publishableKey, {
    cookieOptions: { name: cfg.storageKey },
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll: (list) => {
        for (const c of list) {
          request.cookies.set(c.name, c.value);
          refreshed.push(c);
        }
      },
    },
  });
  await supabase.auth.getSession();
  try {
    return (await cookieUser(request.headers.get("cookie"), cfg)) !== null;
  } catch (err) {
    if (err instanceof AppError && err.status === 503) return true;
    throw err;
  }
}

function secure(res: NextResponse): NextResponse {
  for (const [name, value] of BASE_SECURITY_HEADERS) res.headers.set(name, value);
  return res;
}
