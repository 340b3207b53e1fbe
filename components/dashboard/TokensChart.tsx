"use client";
// Tokens or cost per day, stacked by kind: input, cache write, cache read, output.
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS, CHART_BOX, chartStyle, GRID, Legend, TooltipBox, TooltipRow } from "./chart";
import { KIND_COLORS, KIND_LABELS, TOKEN_KINDS } from "./colors";
import type { DayPoint } from "./days";
import { compactTokens, usd, usdTick } from "./format";
import { Card, NothingYet } from "./Card";

type Mode = "tokens" | "cost";

export function TokensChart({ days }: { days: DayPoint[] }) {
  const [mode, setMode] = useState<Mode>("tokens");
  const empty = days.every((d) => d.requests === 0);
  const key = (k: (typeof TOKEN_KINDS)[number]) => (mode === "tokens" ? k : (`cost_${k}` as const));
  return (
    <Card
      testId="chart-tokens"
      className="lg:col-span-2"
      title={mode === "tokens" ? "Tokens per day" : "Cost per day"}
      description="By kind, in UTC days. Cache reads cost a tenth of input; cache writes a quarter more."
      actions={<ModeSwitch mode={mode} onChange={setMode} />}
    >
      {empty ? (
        <NothingYet>No calls in this range.</NothingYet>
      ) : (
        <div className={CHART_BOX}>
          <BarChart responsive style={chartStyle(240)} data={days} margin={{ top: 4, right: 4, bottom: 0, left: 0 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="label" {...AXIS} minTickGap={12} />
            <YAxis {...AXIS} width={44} tickFormatter={(v: number) => (mode === "tokens" ? compactTokens(v) : usdTick(v))} />
            <Tooltip
              cursor={{ fill: "currentColor", fillOpacity: 0.06 }}
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as DayPoint | undefined) : undefined;
                if (!d) return null;
                return (
                  <TooltipBox title={`${d.label} · ${d.requests} request${d.requests === 1 ? "" : "s"}`}>
                    {TOKEN_KINDS.map((k) => (
                      <TooltipRow
                        key={k}
                        color={KIND_COLORS[k]}
                        label={KIND_LABELS[k]}
                        value={mode === "tokens" ? compactTokens(d[k]) : usd(d[`cost_${k}`])}
                      />
                    ))}
                    <TooltipRow label="Cost" value={usd(d.cost)} />
                  </TooltipBox>
                );
              }}
            />
            {TOKEN_KINDS.map((k) => (
              <Bar key={k} dataKey={key(k)} stackId="kinds" fill={KIND_COLORS[k]} isAnimationActive={false} />
            ))}
          </BarChart>
          <Legend items={TOKEN_KINDS.map((k) => ({ color: KIND_COLORS[k], label: KIND_LABELS[k] }))} />
        </div>
      )}
    </Card>
  );
}

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange(m: Mode): void }) {
  return (
    <div role="group" aria-label="Show" className="inline-flex rounded-md border border-zinc-200 p-0.5 text-xs dark:border-zinc-700">
      {(["tokens", "cost"] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          data-testid={`tokens-mode-${m}`}
          onClick={() => onChange(m)}
          className={`rounded px-2 py-0.5 capitalize ${
            mode === m
              ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900"
              : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
          }`}
        >
          {m}
        </button>
      ))}
    </div>
  );
}
