import { combineChunks, parseCookieHeader, stringFromBase64URL } from "@supabase/ssr";
import { AppError } from "@/lib/errors";
import type { SupabaseAuthConfig } from "@/lib/mode";
import { verifyAccessToken, type VerifiedToken } from "./jwt";

const BASE64_PREFIX = "base64-";

/**
 * The access token of the session @supabase/ssr keeps in cookies (possibly split into
 * `<key>.0`, `<key>.1`, … and base64url-encoded), read without refreshing it: refreshing
 * belongs to the middleware and the browser, which can store the rotated refresh token.
 * Null when there is no readable session; the token itself is verified by the caller.
 */
export async function accessTokenFromCookies(cookieHeader: string | null, storageKey: string): Promise<string | null> {
  if (!cookieHeader || !cookieHeader.includes(storageKey)) return null;
  const jar = new Map(parseCookieHeader(cookieHeader).map((c) => [c.name, c.value]));
  const raw = await combineChunks(storageKey, (name) => jar.get(name));
  if (!raw) return null;
  try {
    const json = raw.startsWith(BASE64_PREFIX) ? stringFromBase64URL(raw.slice(BASE64_PREFIX.length)) : raw;
    const session: unknown = JSON.parse(json);
    if (typeof session === "object" && session !== null && "access_token" in session) {
      const token = (session as { access_token: unknown }).access_token;
      return typeof token === "string" && token !== "" ? token : null;
    }
  } catch {
    // A cookie we cannot read is no session; the caller answers 401.
  }
  return null;
}

/**
 * The signed-in user of a page request's cookies, or null (signed out, expired, forged). It
 * touches no database: the middleware calls it, and the embedded database must only ever be
 * opened by the server's own module graph.
 */
export async function cookieUser(cookieHeader: string | null, cfg: SupabaseAuthConfig): Promise<VerifiedToken | null> {
  const token = await accessTokenFromCookies(cookieHeader, cfg.storageKey);
  if (!token) return null;
  try {
    return await verifyAccessToken(token, cfg);
  } catch (err) {
    if (err instanceof AppError && err.status === 401) return null;
    throw err;
  }
}
