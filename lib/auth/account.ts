import "server-only";
import { cookieUser } from "./session-cookie";
import type { AccountInfo } from "@/lib/contract/account";
import { supabaseAuth } from "@/lib/mode";

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
