"use client";
// A chart Claude put on the canvas: line, bar, area or pie from its rows, sized to the panel,
// with axes and grid in the text colour so the light and dark panels need no second palette.
// Screen readers get the chart's summary; the numbers are in the tooltip and the legend.
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartElement } from "@/lib/contract/canvas-elements";
import { contentSummary } from "@/lib/canvas/describe";
import { compactNumber, formatValue, hasValues, pieSlices, seriesColor } from "@/lib/client/canvas-chart";
import { AXIS, GRID, TooltipBox, TooltipRow } from "@/components/dashboard/chart";

const HEIGHT = 220;
const STYLE = { width: "100%", height: HEIGHT };
const MARGIN = { top: 8, right: 12, bottom: 0, left: 0 };
/** Keeps the first and last points (and their labels) off the plot's edges. */
const X_PADDING = { left: 10, right: 10 };
const LEGEND_STYLE = { fontSize: 11, paddingTop: 4 };

export function CanvasChart({ chart }: { chart: ChartElement }) {
  if (!hasValues(chart)) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">No values to chart yet.</p>;
  }
  return (
    <figure data-testid="canvas-chart" data-chart-type={chart.chart_type} className="text-zinc-500 dark:text-zinc-400">
      <figcaption className="sr-only">{contentSummary(chart)}</figcaption>
      {chart.chart_type === "pie" ? (
        <PieView chart={chart} />
      ) : (
        <div aria-hidden>
          <CartesianView chart={chart} />
        </div>
      )}
    </figure>
  );
}

function CartesianView({ chart }: { chart: ChartElement }) {
  const { x_key, y_keys, unit } = chart;
  const many = y_keys.length > 1;
  const axes = (
    <>
      <CartesianGrid {...GRID} />
      <XAxis dataKey={x_key} {...AXIS} minTickGap={12} padding={chart.chart_type === "bar" ? undefined : X_PADDING} />
      <YAxis {...AXIS} width={44} tickFormatter={(v: number) => compactNumber(v)} />
      <Tooltip
        cursor={{ fill: "currentColor", fillOpacity: 0.08, stroke: "currentColor", strokeOpacity: 0.3 }}
        content={({ active, payload, label }) => {
          if (!active || !payload?.length) return null;
          return (
            <TooltipBox title={String(label ?? "")}>
              {payload.map((p) => (
                <TooltipRow key={String(p.dataKey)} color={p.color} label={String(p.name ?? p.dataKey)} value={formatValue(p.value, unit)} />
              ))}
            </TooltipBox>
          );
        }}
      />
      {many && <Legend wrapperStyle={LEGEND_STYLE} iconSize={8} />}
    </>
  );
  // Dots only where there are few points: hundreds of dots hide the line.
  const dots = chart.data.length <= 24;
  switch (chart.chart_type) {
    case "bar":
      return (
        <BarChart responsive style={STYLE} data={chart.data} margin={MARGIN}>
          {axes}
          {y_keys.map((k, i) => (
            <Bar key={k} dataKey={k} fill={seriesColor(i)} radius={[3, 3, 0, 0]} maxBarSize={40} isAnimationActive={false} />
          ))}
        </BarChart>
      );
    case "area":
      return (
        <AreaChart responsive style={STYLE} data={chart.data} margin={MARGIN}>
          {axes}
          {y_keys.map((k, i) => (
            <Area key={k} dataKey={k} stroke={seriesColor(i)} fill={seriesColor(i)} fillOpacity={0.18} strokeWidth={2} isAnimationActive={false} />
          ))}
        </AreaChart>
      );
    default:
      return (
        <LineChart responsive style={STYLE} data={chart.data} margin={MARGIN}>
          {axes}
          {y_keys.map((k, i) => (
            <Line
              key={k}
              dataKey={k}
              stroke={seriesColor(i)}
              strokeWidth={2}
              dot={dots ? { r: 2.5, fill: seriesColor(i), strokeWidth: 0 } : false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      );
  }
}

/** A pie's legend holds its numbers: a touch screen has no hover for the tooltip. */
function PieView({ chart }: { chart: ChartElement }) {
  const slices = pieSlices(chart);
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  return (
    <>
      <div aria-hidden>
        <PieDrawing chart={chart} slices={slices} />
      </div>
      <ul className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300">
        {slices.map((s, i) => (
          <li key={s.name + i} className="flex min-w-0 items-center gap-1.5">
            <span aria-hidden className="h-2 w-2 shrink-0 rounded-sm" style={{ backgroundColor: seriesColor(i) }} />
            <span className="min-w-0 truncate" title={s.name}>
              {s.name}
            </span>
            <span className="ml-auto shrink-0 tabular-nums text-zinc-500 dark:text-zinc-400">
              {formatValue(s.value, chart.unit)} · {Math.round((s.value / total) * 100)}%
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function PieDrawing({ chart, slices }: { chart: ChartElement; slices: ReturnType<typeof pieSlices> }) {
  return (
    <PieChart responsive style={STYLE}>
      <Pie data={slices} dataKey="value" nameKey="name" innerRadius="45%" outerRadius="80%" paddingAngle={1} stroke="none" isAnimationActive={false}>
        {slices.map((s, i) => (
          <Cell key={s.name + i} fill={seriesColor(i)} />
        ))}
      </Pie>
      <Tooltip
        content={({ active, payload }) => {
          const p = active ? payload?.[0] : undefined;
          if (!p) return null;
          return (
            <TooltipBox title={String(p.name)}>
              <TooltipRow color={(p.payload as { fill?: string } | undefined)?.fill} label={chart.y_keys[0] ?? ""} value={formatValue(p.value, chart.unit)} />
            </TooltipBox>
          );
        }}
      />
    </PieChart>
  );
}
