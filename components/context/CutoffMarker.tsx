"use client";
// Where Claude's verbatim view begins after older turns slid out of the window (condensed
// turns have their compaction's divider instead, and are dimmed).

export function CutoffMarker() {
  return (
    <div
      data-testid="cutoff-marker"
      data-reason="slid"
      role="separator"
      aria-label="Claude's view begins here"
      className="flex items-center gap-3 py-2 text-xs font-medium text-amber-800 animate-tk-appear dark:text-amber-300"
    >
      <span className="h-px flex-1 bg-amber-300 dark:bg-amber-700" />
      <span className="text-center">Claude&apos;s view begins here — earlier turns slid out of the window</span>
      <span className="h-px flex-1 bg-amber-300 dark:bg-amber-700" />
    </div>
  );
}
