import { getDb, LOCAL_USER_ID } from "@/lib/db";
import { ensureEmbeddedUser } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { supabaseAuth } from "./config";
import { verifyAccessToken } from "./jwt";
import { accessTokenFromCookies } from "./session-cookie";

/** How the caller proved who they are; only a verified bearer token is exempt from the browser CSRF rule. */
export type AuthMethod = "local" | "cookie" | "bearer";

export interface Caller {
  userId: string;
  email: string | null;
  via: AuthMethod;
  /** SaaS mode: the sign-in the token belongs to. */
  signInId?: string | null;
}

const LOCAL_CALLER: Caller = Object.freeze({ userId: LOCAL_USER_ID, email: null, via: "local" });

const unauthenticated = (message: string) =>
  new AppError(401, "unauthenticated", message, undefined, { "WWW-Authenticate": "Bearer" });

/**
 * Who is calling. Local mode has exactly one user and no sign-in. SaaS mode (Supabase
 * Auth) needs a verified access token: `Authorization: Bearer <token>` from API clients,
 * or the session cookie @supabase/ssr keeps in the browser. Every route handler calls
 * this itself; the middleware's redirects are a convenience, never the check.
 */
export async function authenticate(req: Request): Promise<Caller> {
  const cfg = supabaseAuth();
  if (!cfg) return LOCAL_CALLER;
  const bearer = bearerToken(req.headers.get("authorization"));
  const token = bearer ?? (await accessTokenFromCookies(req.headers.get("cookie"), cfg.storageKey));
  if (!token) throw unauthenticated("Sign in first: send 'Authorization: Bearer <access token>' or the session cookie.");
  const verified = await verifyAccessToken(token, cfg);
  await ensureEmbeddedUser(await getDb(), verified.userId, verified.email);
  return { ...verified, via: bearer ? "bearer" : "cookie" };
}

/** The token of an `Authorization: Bearer …` header; any other Authorization header is refused, not ignored. */
function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
  if (!match) throw unauthenticated("The Authorization header must be 'Bearer <access token>'.");
  return match[1];
}
