// The browser's side of sign-in: which mode the server runs in, who is signed in, and the
// Supabase client that keeps the session cookie (SaaS mode only).
import { createBrowserClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { AccountInfo } from "@/lib/contract/account";

let account: AccountInfo = { mode: "local", email: null, supabase: null };
let client: SupabaseClient | null = null;
let signingOut = false;

/** Set once from the page the server rendered (AccountProvider). */
export function setAccount(info: AccountInfo): void {
  if (info.supabase?.url !== account.supabase?.url) client = null;
  account = info;
}

export function currentAccount(): AccountInfo {
  return account;
}

/** The browser's Supabase client, sharing its session cookie with the server; null in local mode. */
export function supabaseBrowser(): SupabaseClient | null {
  const cfg = account.supabase;
  if (!cfg) return null;
  client ??= createBrowserClient(cfg.url, cfg.publishableKey, { cookieOptions: { name: cfg.storageKey } });
  return client;
}

/**
 * After a 401 from the API: refresh the session once (the access token may just have
 * expired while the tab slept). False when there is nothing to refresh: sign in again.
 */
export async function refreshSession(): Promise<boolean> {
  const supabase = supabaseBrowser();
  if (!supabase) return false;
  const { data, error } = await supabase.auth.refreshSession();
  return !error && data.session !== null;
}

/** Signs out (ending the session at Supabase too) and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  signingOut = true;
  await supabaseBrowser()?.auth.signOut();
  window.location.assign("/login");
}

/**
 * Where a request that found the user signed out should send them: back here after signing
 * in, unless they are signing out on purpose (the next user must not land in this session).
 */
export function signInAgainPath(): string | null {
  if (signingOut) return null;
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** Where to go after signing in: a same-site path from `?next=`, never another site. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
