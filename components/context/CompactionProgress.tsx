"use client";
// A compaction is running: /compact (shown at once) or the automatic one after a reply
// (shown only if it takes a moment, so a quick "nothing to do" does not flicker).

export function CompactionProgress({ kind }: { kind: "manual" | "auto" }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="compaction-progress"
      data-kind={kind}
      className={`flex items-center justify-center gap-2 text-xs text-sky-800 dark:text-sky-300 ${kind === "auto" ? "tk-delayed-appear" : ""}`}
    >
      <span className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-sky-300 dark:border-sky-800 border-t-sky-700" aria-hidden />
      {kind === "manual" ? "Condensing older turns…" : "Condensing older turns in the background…"}
    </div>
  );
}
