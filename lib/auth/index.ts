import "server-only";
import { getDb, LOCAL_USER_ID } from "@/lib/db";
import { ensureEmbeddedUser } from "@/lib/db/users";
import { AppError, bearerChallenge } from "@/lib/errors";
import { clientAddress } from "@/lib/limits/failed-auth";
import { keyCaller, type Admission } from "./api-keys";
import type { Caller } from "./caller";

export type { AuthMethod, Caller, CallerKey } from "./caller";
import { supabaseAuth } from "@/lib/mode";
import { verifyAccessToken } from "./jwt";
import { accessTokenFromCookies } from "./session-cookie";

const LOCAL_CALLER: Caller = Object.freeze({ userId: LOCAL_USER_ID, email: null, via: "local" });

/** `presented`: a credential came and is not one (RFC 6750's invalid_token); none came, or another scheme: a bare challenge (§3). */
const unauthenticated = (message: string, presented = false) =>
  new AppError(401, "unauthenticated", message, undefined, bearerChallenge(presented ? "invalid_token" : undefined, message));

/**
 * Who is calling. An API key (`Authorization: Bearer tk_live_…` or `x-api-key: tk_live_…`) works in both modes and acts
 * as its owner. Otherwise local mode has exactly one user and no sign-in, and SaaS mode
 * (Supabase Auth) needs a verified access token: `Authorization: Bearer <token>` from API
 * clients, or the session cookie @supabase/ssr keeps in the browser. Every route handler calls
 * this itself; the middleware's redirects are a convenience, never the check. With an
 * admission, a key is also held to the route's scope and counted against its rate limit in the
 * same statement that finds it.
 */
export async function authenticate(req: Request, admission?: Admission): Promise<Caller> {
  const header = req.headers.get("authorization");
  // `x-api-key` is how Anthropic's SDKs send a key (the drop-in Messages API).
  const xApiKey = req.headers.get("x-api-key");
  const key = apiKeyOf(header) ?? (xApiKey?.startsWith("tk_") ? xApiKey.trim() : null);
  if (key) return keyCaller(key, clientAddress(req), admission);
  const cfg = supabaseAuth();
  if (!cfg) return LOCAL_CALLER;
  if (xApiKey !== null && header === null) throw unauthenticated("'x-api-key' must be a Threadkeeper API key (tk_live_…).", true);
  const bearer = bearerToken(header);
  const token = bearer ?? (await accessTokenFromCookies(req.headers.get("cookie"), cfg.storageKey));
  if (!token) throw unauthenticated("Sign in first: send 'Authorization: Bearer <access token>' or the session cookie.");
  const verified = await verifyAccessToken(token, cfg);
  await ensureEmbeddedUser(await getDb(), verified.userId, verified.email);
  return { ...verified, via: bearer ? "bearer" : "cookie" };
}

/**
 * The API key in an `Authorization: Bearer tk_…` header. Checked before the mode, so a key
 * sent to a local-mode server is verified rather than ignored with the rest of the header.
 */
function apiKeyOf(header: string | null): string | null {
  const match = header === null ? null : /^Bearer[ ]+(tk_\S*)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** The token of an `Authorization: Bearer …` header; any other Authorization header is refused, not ignored. */
function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
  if (!match) throw unauthenticated("The Authorization header must be 'Bearer <access token>'.", /^Bearer\s/i.test(header));
  return match[1];
}
