"use client";
// Prompt caching per day: the share of all input read from the cache.
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS, CHART_BOX, chartStyle, GRID, TooltipBox, TooltipRow } from "./chart";
import { KIND_COLORS } from "./colors";
import { showDots, type DayPoint } from "./days";
import { compactTokens, percent } from "./format";
import { Card, NothingYet } from "./Card";

/** docs/architecture.md: at least 70 % of input read from the cache in a long session. */
const TARGET = 70;

export function CacheChart({ days, overall }: { days: DayPoint[]; overall: number | null }) {
  const empty = days.every((d) => d.cache_hit === null);
  return (
    <Card
      testId="chart-cache"
      title="Cache hit rate"
      description={
        <>
          Cache reads as a share of all input, per day{overall !== null && <> · {percent(overall * 100)} over the range</>}. The
          dashed line is the 70 % aim for long sessions.
        </>
      }
    >
      {empty ? (
        <NothingYet>No input tokens in this range.</NothingYet>
      ) : (
        <div className={CHART_BOX}>
          <LineChart responsive style={chartStyle(200)} data={days} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="label" {...AXIS} minTickGap={12} />
            <YAxis {...AXIS} width={40} domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v}%`} />
            <ReferenceLine y={TARGET} stroke="currentColor" strokeOpacity={0.5} strokeDasharray="4 4" />
            <Tooltip
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as DayPoint | undefined) : undefined;
                if (!d) return null;
                return (
                  <TooltipBox title={d.label}>
                    <TooltipRow color={KIND_COLORS.cache_read} label="Hit rate" value={percent(d.cache_hit, 1)} />
                    <TooltipRow label="Cache reads" value={compactTokens(d.cache_read)} />
                    <TooltipRow label="All input" value={compactTokens(d.input + d.cache_write + d.cache_read)} />
                  </TooltipBox>
                );
              }}
            />
            <Line
              dataKey="cache_hit"
              stroke={KIND_COLORS.cache_read}
              strokeWidth={2}
              dot={showDots(days, "cache_hit") ? { r: 2.5, fill: KIND_COLORS.cache_read, strokeWidth: 0 } : false}
              isAnimationActive={false}
            />
          </LineChart>
        </div>
      )}
    </Card>
  );
}
