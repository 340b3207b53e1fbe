"use client";
// Compactions over time: each bar spans the window's tokens before and after, coloured by method.
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from "recharts";
import type { CompactionPointJson } from "@/lib/contract";
import { AXIS, CHART_BOX, chartStyle, GRID, Legend, TooltipBox, TooltipRow } from "./chart";
import { METHOD_COLORS } from "./colors";
import { compactTokens, timeLabel } from "./format";
import { Card, NothingYet } from "./Card";

interface Point extends CompactionPointJson {
  range: [number, number];
  when: string;
  day: string;
}

const DAY_FMT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });

const METHOD_LABELS: Record<string, string> = { llm: "Summary by Claude", extractive: "Extractive", sliding: "Sliding" };

export function CompactionsChart({ compactions, total }: { compactions: CompactionPointJson[]; total: number }) {
  const data: Point[] = compactions.map((c) => ({
    ...c,
    range: [c.post_tokens, c.pre_tokens],
    when: timeLabel(c.created_at),
    day: DAY_FMT.format(new Date(c.created_at)),
  }));
  const methods = [...new Set(compactions.map((c) => c.method))];
  return (
    <Card
      testId="chart-compactions"
      title="Compactions"
      description={
        <>
          Window tokens before → after each compaction{total > compactions.length && <> (the latest {compactions.length} of {total})</>}.
        </>
      }
    >
      {data.length === 0 ? (
        <NothingYet>No compactions in this range. They appear when a session nears its window&apos;s threshold or you type /compact.</NothingYet>
      ) : (
        <div className={CHART_BOX}>
          <BarChart responsive style={chartStyle(200)} data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="day" {...AXIS} minTickGap={16} />
            <YAxis {...AXIS} width={44} tickFormatter={(v: number) => compactTokens(v)} />
            <Tooltip
              cursor={{ fill: "currentColor", fillOpacity: 0.06 }}
              content={({ active, payload }) => {
                const c = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
                if (!c) return null;
                return (
                  <TooltipBox title={`${c.when} · ${c.title || "Untitled session"}`}>
                    <TooltipRow color={METHOD_COLORS[c.method]} label={METHOD_LABELS[c.method] ?? c.method} value={c.trigger} />
                    <TooltipRow label="Before → after" value={`${compactTokens(c.pre_tokens)} → ${compactTokens(c.post_tokens)}`} />
                    <TooltipRow label="Reduction" value={`${Math.round(c.reduction_percent)}%`} />
                    <TooltipRow label="Retention" value={`${Math.round(c.retention_rate * 100)}%`} />
                    <TooltipRow label="At turn" value={c.at_turn} />
                    {c.status !== "applied" && <TooltipRow label="Status" value={c.status} />}
                  </TooltipBox>
                );
              }}
            />
            <Bar dataKey="range" isAnimationActive={false} maxBarSize={14} radius={2}>
              {data.map((c) => (
                <Cell key={c.id} fill={METHOD_COLORS[c.method] ?? "#71717a"} fillOpacity={c.status === "reverted" ? 0.35 : 1} />
              ))}
            </Bar>
          </BarChart>
          <Legend items={methods.map((m) => ({ color: METHOD_COLORS[m] ?? "#71717a", label: METHOD_LABELS[m] ?? m }))} />
          <CompactionList compactions={compactions.slice(-4).reverse()} />
        </div>
      )}
    </Card>
  );
}

function CompactionList({ compactions }: { compactions: CompactionPointJson[] }) {
  return (
    <ul className="mt-3 divide-y divide-zinc-100 text-xs text-zinc-700 dark:divide-zinc-800 dark:text-zinc-300" data-testid="compaction-list">
      {compactions.map((c) => (
        <li key={c.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 py-1.5">
          <span className="min-w-0 truncate">
            <span className="text-zinc-500 dark:text-zinc-400">{timeLabel(c.created_at)}</span> · {c.title || "Untitled session"}
          </span>
          <span className="tabular-nums">
            {METHOD_LABELS[c.method] ?? c.method}: {compactTokens(c.pre_tokens)} → {compactTokens(c.post_tokens)}, {Math.round(c.retention_rate * 100)}%
            kept
          </span>
        </li>
      ))}
    </ul>
  );
}
