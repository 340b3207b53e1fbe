"use client";
// Said before the first message, not after it: without an Anthropic key an offline responder
// answers. Local mode offers the way to add one; SaaS mode never shows this (the operator's key).
import { useEffect } from "react";
import { KeyRound } from "lucide-react";
import { useKeyStore } from "@/lib/client/key-store";
import { useSettingsPanel } from "@/lib/client/settings-panel-store";

export function NoKeyNotice() {
  const status = useKeyStore((s) => s.status);
  useEffect(() => {
    void useKeyStore.getState().load();
  }, []);
  if (!status || status.source !== "none" || !status.can_set) return null;
  return (
    <div
      role="status"
      data-testid="no-key-notice"
      className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1.5 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <KeyRound aria-hidden className="h-4 w-4 shrink-0 text-amber-700 dark:text-amber-300" />
      <p className="min-w-0 flex-1">
        <span className="font-medium">No Anthropic key is set.</span> An offline responder will answer instead of Claude; add your key to talk to Claude.
      </p>
      <button
        type="button"
        data-testid="no-key-add"
        onClick={() => useSettingsPanel.getState().show("account")}
        className="rounded-md border border-amber-300 bg-white px-2.5 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100 dark:border-amber-800 dark:bg-zinc-900 dark:text-amber-200 dark:hover:bg-amber-900/40"
      >
        Add a key
      </button>
    </div>
  );
}
