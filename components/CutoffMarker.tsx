"use client";
// Where Claude's verbatim view begins: everything above it (except kept turns) either slid
// out of the window or is condensed into the summary Claude sees instead.

export function CutoffMarker({ reason = "slid" }: { reason?: "slid" | "condensed" }) {
  return (
    <div
      data-testid="cutoff-marker"
      data-reason={reason}
      role="separator"
      aria-label="Claude's view begins here"
      className={`flex items-center gap-3 py-2 text-xs font-medium animate-tk-appear ${
        reason === "condensed" ? "text-sky-800 dark:text-sky-300" : "text-amber-800 dark:text-amber-300"
      }`}
    >
      <span className={`h-px flex-1 ${reason === "condensed" ? "bg-sky-200 dark:bg-sky-800" : "bg-amber-300 dark:bg-amber-700"}`} />
      <span className="text-center">
        {reason === "condensed"
          ? "Claude's view begins here — earlier turns are condensed into the summary"
          : "Claude's view begins here — earlier turns slid out of the window"}
      </span>
      <span className={`h-px flex-1 ${reason === "condensed" ? "bg-sky-200 dark:bg-sky-800" : "bg-amber-300 dark:bg-amber-700"}`} />
    </div>
  );
}
