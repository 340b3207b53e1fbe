"use client";
// Pinning a message keeps its whole turn in Claude's view however full the window gets.
import { Pin } from "lucide-react";

export function ProtectToggle({
  pressed,
  busy,
  onToggle,
}: {
  pressed: boolean;
  busy: boolean;
  onToggle(): void;
}) {
  const label = pressed ? "Unprotect message" : "Protect message (always keep in context)";
  return (
    <button
      type="button"
      data-testid="protect-toggle"
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      disabled={busy}
      onClick={onToggle}
      className={`rounded p-1 transition-colors focus-visible:outline-2 focus-visible:outline-sky-500 disabled:opacity-50 ${
        pressed ? "text-sky-700 dark:text-sky-400 hover:bg-sky-100 dark:hover:bg-sky-900/40" : "text-zinc-400 dark:text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800 hover:text-zinc-700 dark:hover:text-zinc-300"
      }`}
    >
      <Pin aria-hidden className="h-4 w-4" fill={pressed ? "currentColor" : "none"} />
    </button>
  );
}

