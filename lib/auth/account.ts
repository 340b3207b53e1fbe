import { cookieUser } from "./session-cookie";
import { supabaseAuth } from "./config";

/** What the browser needs to know about sign-in, handed over by the page at request time. */
export interface AccountInfo {
  mode: "local" | "supabase";
  /** The signed-in user's email (SaaS mode). */
  email: string | null;
  /** How the browser reaches Supabase Auth: read at request time, so one build serves both modes. */
  supabase: { url: string; publishableKey: string; storageKey: string } | null;
}

export async function accountInfo(cookieHeader: string | null): Promise<AccountInfo> {
  const cfg = supabaseAuth();
  if (!cfg) return { mode: "local", email: null, supabase: null };
  const user = await cookieUser(cookieHeader, cfg);
  return {
    mode: "supabase",
    email: user?.email ?? null,
    supabase: { url: cfg.browserUrl, publishableKey: cfg.publishableKey, storageKey: cfg.storageKey },
  };
}
