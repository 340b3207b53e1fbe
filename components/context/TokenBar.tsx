"use client";
// How full Claude's context is, drawn against the capacity (what can be sent at all), so the
// fill matches the percentage beside it; the mark is where compaction starts. Above the
// normal level an icon says so too, not the colour alone.
import { useId, useState } from "react";
import { AlertOctagon, AlertTriangle } from "lucide-react";
import type { ContextStatusJson, ContextStatusLevel } from "@/lib/contract";
import { compactTokens, percentLabel } from "@/lib/client/format";
import { tokenBarSummary } from "@/lib/client/token-bar-text";
import { TokenBarTooltip } from "@/components/context/TokenBarTooltip";

const USED_COLOUR: Record<ContextStatusLevel, string> = {
  normal: "bg-emerald-500",
  warning: "bg-amber-400",
  critical: "bg-red-500",
};

/** Pulse once usage is this close (in percentage points) to the compaction threshold. */
const PULSE_MARGIN = 10;

const clampPercent = (p: number) => `${Math.min(100, Math.max(0, p))}%`;

export function TokenBar({ status }: { status: ContextStatusJson | null }) {
  const [open, setOpen] = useState(false);
  const tooltipId = useId();

  const level: ContextStatusLevel = status?.status ?? "normal";
  const percent = status?.usage_percent ?? 0;
  const pulsing = status !== null && percent >= status.threshold_percent - PULSE_MARGIN;
  const summary = tokenBarSummary(status);

  return (
    <div
      data-testid="token-bar"
      className="relative flex min-w-0 items-center gap-2 rounded-md px-1 py-1 outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
      tabIndex={0}
      role="group"
      aria-label={summary}
      aria-describedby={open && status ? tooltipId : undefined}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => {
        // Moving into the details inside keeps them open.
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      {/* Sized by the chat column (main's container), not the window: side panels narrow the chat. */}
      <span className="hidden text-xs font-medium text-zinc-500 dark:text-zinc-400 @4xl:inline">Context</span>
      <div
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={summary}
        className="relative flex h-2.5 w-20 shrink-0 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800 ring-1 ring-inset ring-zinc-200 dark:ring-zinc-700 @xl:w-24 @4xl:w-56 @6xl:w-72"
      >
        <div
          data-testid="token-bar-used"
          data-status={level}
          data-percent={percent}
          className={`h-full transition-[width,background-color] duration-500 ease-out ${USED_COLOUR[level]} ${pulsing ? "animate-tk-pulse" : ""}`}
          style={{ width: clampPercent(percent) }}
        />
        {status && (
          <div
            data-testid="token-bar-threshold"
            aria-hidden
            className="absolute inset-y-0 w-0.5 -translate-x-1/2 bg-zinc-700/70 dark:bg-zinc-300/70 transition-[left] duration-500"
            style={{ left: clampPercent(status.threshold_percent) }}
          />
        )}
      </div>
      {level === "warning" && <AlertTriangle data-testid="token-bar-level" aria-hidden className="h-3.5 w-3.5 shrink-0 text-amber-600 dark:text-amber-400" />}
      {level === "critical" && <AlertOctagon data-testid="token-bar-level" aria-hidden className="h-3.5 w-3.5 shrink-0 text-red-600 dark:text-red-400" />}
      <span aria-hidden className="whitespace-nowrap text-xs tabular-nums text-zinc-600 dark:text-zinc-400" data-testid="token-bar-label">
        {status ? (
          <>
            {percentLabel(percent)}
            {/* The counts need room the narrow header does not have; the tooltip gives them all. */}
            <span className="@max-4xl:hidden">{` · ${compactTokens(status.current_tokens)} / ${compactTokens(status.capacity_tokens)}`}</span>
          </>
        ) : (
          "—"
        )}
      </span>
      {open && status && <TokenBarTooltip id={tooltipId} status={status} />}
    </div>
  );
}
