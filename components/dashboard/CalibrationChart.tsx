"use client";
// How far our token estimate of each chat request was from what the API measured, per day.
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS, CHART_BOX, chartStyle, GRID, Legend, TooltipBox, TooltipRow } from "./chart";
import { ESTIMATE_COLOR, MEASURED_COLOR } from "./colors";
import { showDots, type DayPoint } from "./days";
import { percent } from "./format";
import { Card, NothingYet } from "./Card";

/** Whole percents where the axis is wide, one decimal where it is narrow: "-1.5%", "12%". */
function percentTick(v: number): string {
  return `${Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10}%`;
}


export function CalibrationChart({ days, overall }: { days: DayPoint[]; overall: number | null }) {
  const empty = days.every((d) => d.calibration_calls === 0);
  return (
    <Card
      testId="chart-calibration"
      title="Estimate vs measured"
      description={
        <>
          Mean error of our token estimate of each request against the API&apos;s count
          {overall !== null && <> · {percent(overall, 1)} over the range</>}. Below zero we under-estimated.
        </>
      }
    >
      {empty ? (
        <NothingYet>No measured chat requests in this range.</NothingYet>
      ) : (
        <div className={CHART_BOX}>
          <LineChart responsive style={chartStyle(200)} data={days} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="label" {...AXIS} minTickGap={12} />
            {/* At least ±1 %: a tenth of a percent should look small, not fill the chart. */}
            <YAxis
              {...AXIS}
              width={44}
              domain={[(min: number) => Math.min(Math.floor(min), -1), (max: number) => Math.max(Math.ceil(max), 1)]}
              tickFormatter={percentTick}
            />
            <ReferenceLine y={0} stroke="currentColor" strokeOpacity={0.4} />
            <Tooltip
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as DayPoint | undefined) : undefined;
                if (!d) return null;
                return (
                  <TooltipBox title={`${d.label} · ${d.calibration_calls} request${d.calibration_calls === 1 ? "" : "s"}`}>
                    <TooltipRow color={MEASURED_COLOR} label="Mean |error|" value={percent(d.calibration_error, 1)} />
                    <TooltipRow color={ESTIMATE_COLOR} label="Mean error" value={percent(d.calibration_bias, 1)} />
                  </TooltipBox>
                );
              }}
            />
            <Line
              dataKey="calibration_error"
              stroke={MEASURED_COLOR}
              strokeWidth={2}
              dot={showDots(days, "calibration_error") ? { r: 2.5, fill: MEASURED_COLOR, strokeWidth: 0 } : false}
              isAnimationActive={false}
            />
            <Line dataKey="calibration_bias" stroke={ESTIMATE_COLOR} strokeWidth={1.5} strokeDasharray="4 3" dot={false} isAnimationActive={false} />
          </LineChart>
          <Legend
            items={[
              { color: MEASURED_COLOR, label: "Mean absolute error" },
              { color: ESTIMATE_COLOR, label: "Mean error (bias)", dashed: true },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
