"use client";
// How full Claude's context window is, drawn over the whole model window W so the parts
// that are never available for input (reply reservation, safety buffer) stay visible.
import { useId, useState } from "react";
import type { ContextStatusJson, ContextStatusLevel } from "@/lib/api/types";
import { compactTokens, percentLabel } from "@/lib/client/format";
import { TokenBarTooltip } from "@/components/TokenBarTooltip";

const USED_COLOUR: Record<ContextStatusLevel, string> = {
  normal: "bg-emerald-500",
  warning: "bg-amber-400",
  critical: "bg-red-500",
};

// Hatching tells the safety buffer apart from the reply reservation without a legend; its
// two tones come from globals.css so they follow the theme.
const HATCH = "repeating-linear-gradient(135deg, var(--tk-hatch-a) 0 3px, var(--tk-hatch-b) 3px 6px)";

/** Pulse once usage is this close (in percentage points) to the compaction threshold. */
const PULSE_MARGIN = 10;

function fraction(part: number, whole: number): string {
  if (whole <= 0) return "0%";
  return `${Math.min(100, Math.max(0, (part / whole) * 100))}%`;
}

export function TokenBar({ status }: { status: ContextStatusJson | null }) {
  const [open, setOpen] = useState(false);
  const tooltipId = useId();

  const level: ContextStatusLevel = status?.status ?? "normal";
  const percent = status?.usage_percent ?? 0;
  const windowTokens = status?.max_tokens ?? 0;
  const used = status ? Math.min(status.current_tokens, status.capacity_tokens) : 0;
  const available = status ? Math.max(0, status.capacity_tokens - used) : 0;
  const pulsing = status !== null && percent >= status.threshold_percent - PULSE_MARGIN;
  const thresholdAt =
    status && windowTokens > 0 ? ((status.threshold_percent / 100) * status.capacity_tokens) / windowTokens : null;

  return (
    <div
      data-testid="token-bar"
      className="relative flex min-w-0 items-center gap-2 rounded-md px-1 py-1 outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
      tabIndex={0}
      role="group"
      aria-label="Context usage"
      aria-describedby={open && status ? tooltipId : undefined}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      {/* Sized by the chat column (main's container), not the window: side panels narrow the chat. */}
      <span className="hidden text-xs font-medium text-zinc-500 dark:text-zinc-400 @lg:inline">Context</span>
      <div
        role="meter"
        aria-label="Context window usage"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={status ? `${percentLabel(percent)} of capacity used` : "No session"}
        className="relative flex h-2.5 w-32 shrink-0 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800 ring-1 ring-inset ring-zinc-200 dark:ring-zinc-700 @lg:w-56 @5xl:w-72"
      >
        <div
          data-testid="token-bar-used"
          data-status={level}
          data-percent={percent}
          className={`h-full transition-[width,background-color] duration-500 ease-out ${USED_COLOUR[level]} ${pulsing ? "animate-tk-pulse" : ""}`}
          style={{ width: fraction(used, windowTokens) }}
        />
        <div className="h-full transition-[width] duration-500 ease-out" style={{ width: fraction(available, windowTokens) }} />
        <div
          className="h-full transition-[width] duration-500 ease-out"
          style={{ width: fraction(status?.safety_tokens ?? 0, windowTokens), backgroundImage: HATCH }}
        />
        <div
          className="h-full bg-zinc-300 dark:bg-zinc-600 transition-[width] duration-500 ease-out"
          style={{ width: fraction(status?.reserved_tokens ?? 0, windowTokens) }}
        />
        {thresholdAt !== null && (
          <div
            data-testid="token-bar-threshold"
            aria-hidden
            className="absolute inset-y-0 w-0.5 -translate-x-1/2 bg-zinc-700/70 dark:bg-zinc-300/70 transition-[left] duration-500"
            style={{ left: `${Math.min(100, thresholdAt * 100)}%` }}
          />
        )}
      </div>
      <span className="whitespace-nowrap text-xs tabular-nums text-zinc-600 dark:text-zinc-400" data-testid="token-bar-label">
        {status
          ? `${percentLabel(percent)} · ${compactTokens(status.current_tokens)} / ${compactTokens(status.capacity_tokens)}`
          : "—"}
      </span>
      {open && status && <TokenBarTooltip id={tooltipId} status={status} />}
    </div>
  );
}
