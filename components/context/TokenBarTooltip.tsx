"use client";
// Exact figures behind the token bar, and how much of "used" the API actually measured.
import { Minimize2 } from "lucide-react";
import type { ContextStatusJson } from "@/lib/contract";
import { useConversationStore } from "@/lib/client/conversation-store";
import { compactTokens, exactTokens, percentLabel, usd } from "@/lib/client/format";
import { breakdownRows } from "@/lib/client/token-bar-text";

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className={`tabular-nums ${strong ? "font-semibold text-zinc-900 dark:text-zinc-100" : "text-zinc-700 dark:text-zinc-300"}`}>{value}</dd>
    </div>
  );
}

/** The user's billed tokens today across sessions, against the daily budget when there is one. */
function TodayUsage({ status }: { status: ContextStatusJson }) {
  const budget = status.daily_token_budget;
  const share = budget ? status.tokens_today / budget : 0;
  const tone = share >= 1 ? "text-red-700 dark:text-red-400" : share >= 0.8 ? "text-amber-700 dark:text-amber-400" : "text-zinc-700 dark:text-zinc-300";
  return (
    <p data-testid="token-bar-today" className={`mt-1 tabular-nums ${tone}`}>
      Today: {compactTokens(status.tokens_today)}
      {budget !== null && ` / ${compactTokens(budget)}`} tokens
      <span className="text-zinc-500 dark:text-zinc-400"> · all sessions</span>
    </p>
  );
}

function MeasurementNote({ status }: { status: ContextStatusJson }) {
  if (status.measured) {
    return <p className="text-emerald-700 dark:text-emerald-400">Measured by the API</p>;
  }
  return (
    <div className="space-y-0.5">
      <p className="text-amber-700 dark:text-amber-400">Estimated locally (calibration ×{status.calibration_factor.toFixed(2)})</p>
      <p className="text-zinc-500 dark:text-zinc-400">
        {exactTokens(status.measured_tokens)} measured by the API + {exactTokens(status.estimated_tokens)} estimated since
      </p>
    </div>
  );
}

/**
 * Condense older turns now, as /compact does, at any level: also below the threshold, and at
 * 98 % with automatic compaction off, where nothing else would.
 */
function CompactNow() {
  const busy = useConversationStore((s) => s.phase !== "idle" || s.compacting || s.autoCompacting || !s.sessionId);
  const compacting = useConversationStore((s) => s.compacting);
  return (
    <button
      type="button"
      data-testid="token-bar-compact"
      disabled={busy}
      onClick={() => void useConversationStore.getState().compact({ force: true })}
      className="mt-3 inline-flex w-full items-center justify-center gap-1.5 rounded-md border border-zinc-300 px-2.5 py-1.5 font-medium text-zinc-800 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
    >
      <Minimize2 aria-hidden className="h-3.5 w-3.5" />
      {compacting ? "Compacting…" : "Compact now"}
    </button>
  );
}

export function TokenBarTooltip({ id, status }: { id: string; status: ContextStatusJson }) {
  const total = Math.max(1, status.current_tokens);
  return (
    // The padding, not a margin, spaces it from the bar: the pointer crosses into it without
    // leaving the bar's hover area, so "Compact now" can be reached with the mouse.
    <div
      id={id}
      role="group"
      aria-label="Context details"
      data-testid="token-bar-tooltip"
      className="absolute left-0 top-full z-30 pt-2 sm:left-auto sm:right-0"
    >
      <div className="w-72 rounded-lg border border-zinc-200 bg-white p-3 text-xs shadow-lg animate-tk-appear dark:border-zinc-700 dark:bg-zinc-900">
        <p className="mb-2 font-medium text-zinc-900 dark:text-zinc-100">
          {percentLabel(status.usage_percent)} used: {exactTokens(status.current_tokens)} of {exactTokens(status.capacity_tokens)} tokens
        </p>
        <dl className="space-y-0.5">
          <Row label="Used by this conversation" value={exactTokens(status.current_tokens)} strong />
          <Row label="Room left" value={exactTokens(status.available_tokens)} />
          <Row label="About this many more messages" value={`≈ ${exactTokens(status.estimated_messages_remaining)}`} />
          <Row label="Compaction at" value={percentLabel(status.threshold_percent)} />
          <Row label="Kept back for Claude's reply" value={exactTokens(status.reserved_tokens)} />
        </dl>
        <p className="mb-1 mt-3 font-medium text-zinc-900 dark:text-zinc-100">Breakdown</p>
        <dl className="space-y-1">
          {breakdownRows(status.breakdown).map(({ key, label, tokens, partOf }) => (
            // A group of a <dl> holds only <dt> and <dd>: the share's bar is a second <dd>, a picture of the first.
            <div key={key} data-testid={`token-bar-row-${key}`} className={`grid grid-cols-[1fr_auto] gap-x-4 ${partOf ? "pl-3" : ""}`}>
              <dt className="text-zinc-500 dark:text-zinc-400">{partOf ? `${label} (of ${partOf})` : label}</dt>
              <dd className="tabular-nums text-zinc-700 dark:text-zinc-300">{exactTokens(tokens)}</dd>
              <dd aria-hidden className="col-span-2 mt-0.5 h-1 rounded-full bg-zinc-100 dark:bg-zinc-800">
                <div className={`h-1 rounded-full ${partOf ? "bg-violet-400" : "bg-sky-400"}`} style={{ width: `${Math.min(100, (tokens / total) * 100)}%` }} />
              </dd>
            </div>
          ))}
        </dl>
        {status.cleared_tokens > 0 && (
          <p data-testid="token-bar-cleared" className="mt-2 text-zinc-500 dark:text-zinc-400">
            Cleared: {exactTokens(status.cleared_tokens)} tokens of old tool results are sent as placeholders (still in the chat).
          </p>
        )}
        <p className="mb-1 mt-3 font-medium text-zinc-900 dark:text-zinc-100">Cost of this session</p>
        <dl className="space-y-0.5" data-testid="token-bar-cost">
          <Row label="So far" value={usd(status.cost_usd)} strong />
          <Row label="Input read from cache" value={`${Math.round(status.cache_read_share * 100)}%`} />
        </dl>
        <TodayUsage status={status} />
        <details data-testid="token-bar-details" className="mt-3 border-t border-zinc-100 pt-2 dark:border-zinc-800">
          <summary className="cursor-pointer select-none font-medium text-zinc-700 dark:text-zinc-300">Details</summary>
          <dl className="mt-1 space-y-0.5">
            <Row label="Capacity (sendable)" value={exactTokens(status.capacity_tokens)} />
            <Row label="Model window" value={exactTokens(status.max_tokens)} />
            <Row label="Safety buffer" value={exactTokens(status.safety_tokens)} />
          </dl>
          <div className="mt-2">
            <MeasurementNote status={status} />
          </div>
        </details>
        <CompactNow />
      </div>
    </div>
  );
}
