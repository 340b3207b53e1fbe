"use client";
// Hands the server's view of sign-in (mode, email, how to reach Supabase) to the browser
// before anything below it renders or calls the API.
import { createContext, useContext, useState, type ReactNode } from "react";
import type { AccountInfo } from "@/lib/contract/account";
import { setAccount } from "@/lib/client/account";

const AccountContext = createContext<AccountInfo>({ mode: "local", email: null, supabase: null });

export function AccountProvider({ account, children }: { account: AccountInfo; children: ReactNode }) {
  // An initializer, not an effect: children's first effects already call the API.
  useState(() => setAccount(account));
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

export function useAccount(): AccountInfo {
  return useContext(AccountContext);
}
