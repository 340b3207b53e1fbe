"use client";
// Where Claude's view begins: everything above it (except kept turns) slid out of the window.

export function CutoffMarker() {
  return (
    <div
      data-testid="cutoff-marker"
      role="separator"
      aria-label="Claude's view begins here"
      className="flex items-center gap-3 py-2 text-xs font-medium text-amber-800 animate-tk-appear"
    >
      <span className="h-px flex-1 bg-amber-300" />
      <span className="text-center">Claude&apos;s view begins here — earlier turns slid out of the window</span>
      <span className="h-px flex-1 bg-amber-300" />
    </div>
  );
}
