// The range at a glance.
import type { UsageMetrics } from "@/lib/contract";
import { compactTokens, percent, usd } from "./format";

export function SummaryCards({ totals }: { totals: UsageMetrics }) {
  const input = totals.input_tokens + totals.cache_creation_input_tokens + totals.cache_read_input_tokens;
  const items = [
    { label: "Cost", value: usd(totals.cost_usd), testId: "total-cost" },
    { label: "Requests", value: totals.requests.toLocaleString("en-US") },
    { label: "Tokens in / out", value: `${compactTokens(input)} / ${compactTokens(totals.output_tokens)}` },
    { label: "Cache hit rate", value: percent(totals.cache_hit_rate === null ? null : totals.cache_hit_rate * 100) },
    { label: "Compactions", value: totals.compactions.toLocaleString("en-US") },
    { label: "Estimate error", value: percent(totals.calibration_error_percent, 1) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-6" data-testid="summary-cards">
      {items.map((i) => (
        <div key={i.label} className="rounded-xl border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900">
          <dt className="text-[11px] uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{i.label}</dt>
          <dd data-testid={i.testId} className="mt-0.5 truncate text-lg font-semibold tabular-nums text-zinc-900 dark:text-zinc-100">
            {i.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
