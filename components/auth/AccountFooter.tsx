"use client";
// Who is signed in, and the way out (SaaS mode only; local mode has no accounts).
import { useState } from "react";
import { signOut } from "@/lib/client/account";
import { leaveDrafts } from "@/lib/client/drafts";
import { useAccount } from "@/components/auth/AccountProvider";

export function AccountFooter() {
  const { mode, email } = useAccount();
  const [leaving, setLeaving] = useState(false);
  if (mode !== "supabase") return null;
  return (
    <div className="flex items-center gap-2 border-t border-zinc-200 dark:border-zinc-800 px-4 py-3" data-testid="account">
      <span aria-hidden className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-zinc-800 text-xs font-semibold uppercase text-white">
        {(email ?? "?").slice(0, 1)}
      </span>
      <span className="min-w-0 flex-1 truncate text-xs text-zinc-700 dark:text-zinc-300" title={email ?? undefined} data-testid="account-email">
        {email ?? "Signed in"}
      </span>
      <button
        type="button"
        data-testid="sign-out"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          leaveDrafts();
          void signOut().catch(() => setLeaving(false));
        }}
        className="whitespace-nowrap rounded-md px-2 py-1 text-xs font-medium text-zinc-600 dark:text-zinc-400 hover:bg-zinc-200/70 dark:hover:bg-zinc-800 hover:text-zinc-900 dark:hover:text-zinc-100 disabled:opacity-50"
      >
        {leaving ? "Signing out…" : "Sign out"}
      </button>
    </div>
  );
}
