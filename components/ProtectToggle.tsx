"use client";
// Pinning a message keeps its whole turn in Claude's view however full the window gets.

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
        pressed ? "text-sky-700 hover:bg-sky-100" : "text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
      }`}
    >
      <PinIcon filled={pressed} />
    </button>
  );
}

function PinIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M9 4h6l-1 6 3 3v2H7v-2l3-3z" />
      <path d="M12 15v5" />
    </svg>
  );
}
