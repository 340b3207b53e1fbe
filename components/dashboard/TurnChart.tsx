"use client";
// One session turn by turn: how full the window was when the API measured each request,
// against our estimate, with compactions and slides marked where they happened.
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { csvHref, sessionTurns } from "@/lib/client/api/usage";
import type { SessionRowJson, TurnRowJson } from "@/lib/contract";
import { AXIS, CHART_BOX, chartStyle, GRID, Legend, TooltipBox, TooltipRow } from "./chart";
import { COMPACTION_COLOR, ESTIMATE_COLOR, MEASURED_COLOR, SLIDE_COLOR } from "./colors";
import { compactTokens, percent, sessionName, usd } from "./format";
import { Card, ErrorNotice, NothingYet, Skeleton } from "./Card";
import { useAsync } from "./useAsync";

const TURNS = 500;

interface Point extends TurnRowJson {
  estimated_fill: number | null;
}

export function TurnChart({
  sessions,
  selected,
  onSelect,
}: {
  sessions: SessionRowJson[];
  selected: string | null;
  onSelect(id: string): void;
}) {
  const turns = useAsync(selected ? (signal) => sessionTurns(selected, { limit: TURNS, signal }) : null, [selected]);
  const choices = sessions.filter((s): s is SessionRowJson & { session_id: string } => s.session_id !== null);
  const data: Point[] = (turns.data?.rows ?? [])
    .filter((t) => t.turn_seq !== null)
    .map((t) => ({
      ...t,
      estimated_fill: t.estimated_input_tokens !== null && t.capacity_tokens ? (100 * t.estimated_input_tokens) / t.capacity_tokens : null,
    }));
  const compactionTurns = data.filter((t) => t.compaction_events.length > 0);
  const slides = data.filter((t) => t.slide);
  const report = turns.data;

  return (
    <Card
      testId="chart-turns"
      className="lg:col-span-2"
      title="Context fill, turn by turn"
      description="How full the window was when the API measured each turn's request (100 % = the capacity left after the reply and safety reserve), against our estimate."
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor="turns-session">
            Session
          </label>
          <select
            id="turns-session"
            data-testid="session-chooser"
            value={selected ?? ""}
            onChange={(e) => onSelect(e.target.value)}
            className="max-w-[16rem] truncate rounded-md border border-zinc-300 bg-white px-2 py-1 text-xs text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
          >
            {!selected && <option value="">Choose a session</option>}
            {selected && !choices.some((s) => s.session_id === selected) && <option value={selected}>This session</option>}
            {choices.map((s) => (
              <option key={s.session_id} value={s.session_id}>
                {sessionName(s)} · {usd(s.cost_usd)}
              </option>
            ))}
          </select>
          {selected && (
            <a
              href={csvHref({ group_by: "turn", session_id: selected })}
              download
              className="rounded-md border border-zinc-300 px-2 py-1 text-xs text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              CSV
            </a>
          )}
        </div>
      }
    >
      {!selected ? (
        <NothingYet>Pick a session above to see its turns.</NothingYet>
      ) : turns.status === "error" ? (
        <ErrorNotice message={turns.error} onRetry={turns.reload} />
      ) : !report ? (
        <Skeleton className="h-64" />
      ) : data.every((t) => t.fill_percent === null) ? (
        <NothingYet>No measured chat requests in this session yet.</NothingYet>
      ) : (
        <div className={`${CHART_BOX} ${turns.status === "loading" ? "opacity-60" : ""}`}>
          <ComposedChart responsive style={chartStyle(260)} data={data} margin={{ top: 12, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="turn_seq" type="number" domain={["dataMin", "dataMax"]} allowDecimals={false} {...AXIS} />
            <YAxis {...AXIS} width={40} domain={[0, (max: number) => Math.max(100, Math.ceil(max / 10) * 10)]} tickFormatter={(v: number) => `${v}%`} />
            <ReferenceLine y={100} stroke="currentColor" strokeOpacity={0.5} strokeDasharray="4 4" />
            {compactionTurns.map((t) => (
              <ReferenceLine key={`c${t.turn_seq}`} className="turn-compaction" x={t.turn_seq ?? 0} stroke={COMPACTION_COLOR} strokeWidth={1.5} />
            ))}
            {slides.map((t) => (
              <ReferenceLine key={`s${t.turn_seq}`} className="turn-slide" x={t.turn_seq ?? 0} stroke={SLIDE_COLOR} strokeDasharray="3 3" />
            ))}
            <Tooltip content={({ active, payload }) => <TurnTooltip turn={active ? (payload?.[0]?.payload as Point | undefined) : undefined} />} />
            <Area dataKey="fill_percent" stroke={MEASURED_COLOR} fill={MEASURED_COLOR} fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} connectNulls />
            <Line dataKey="estimated_fill" stroke={ESTIMATE_COLOR} strokeDasharray="4 3" strokeWidth={1.5} dot={false} isAnimationActive={false} connectNulls />
          </ComposedChart>
          <Legend
            items={[
              { color: MEASURED_COLOR, label: "Measured fill" },
              { color: ESTIMATE_COLOR, label: "Our estimate", dashed: true },
              { color: COMPACTION_COLOR, label: `Compaction (${compactionTurns.length})` },
              { color: SLIDE_COLOR, label: `Slide (${slides.length})`, dashed: true },
            ]}
          />
          <p className="mt-2 text-[11px] text-zinc-500 dark:text-zinc-400" data-testid="turns-summary">
            {report.total_rows} turn{report.total_rows === 1 ? "" : "s"}
            {report.truncated && `, the latest ${report.rows.length} shown`} · {usd(report.totals.cost_usd)} · {report.totals.requests} requests ·
            cache {percent(report.totals.cache_hit_rate === null ? null : report.totals.cache_hit_rate * 100)}
          </p>
        </div>
      )}
    </Card>
  );
}

function TurnTooltip({ turn: t }: { turn: Point | undefined }) {
  if (!t) return null;
  return (
    <TooltipBox title={`Turn ${t.turn_seq}`}>
      {t.context_tokens !== null && (
        <TooltipRow color={MEASURED_COLOR} label="Measured" value={`${compactTokens(t.context_tokens)} · ${percent(t.fill_percent, 1)}`} />
      )}
      {t.estimated_input_tokens !== null && (
        <TooltipRow
          color={ESTIMATE_COLOR}
          label="Estimated"
          value={`${compactTokens(t.estimated_input_tokens)}${t.estimate_error_percent !== null ? ` · ${t.estimate_error_percent > 0 ? "+" : ""}${t.estimate_error_percent.toFixed(1)}%` : ""}`}
        />
      )}
      {t.window_start_turn !== null && <TooltipRow label="Window starts at" value={`turn ${t.window_start_turn}`} />}
      <TooltipRow label="Cost" value={usd(t.cost_usd)} />
      {t.slide && <TooltipRow color={SLIDE_COLOR} label="Slid out" value={`${t.slid_turns} turn${t.slid_turns === 1 ? "" : "s"}`} />}
      {t.compaction_events.map((c) => (
        <TooltipRow
          key={c.id}
          color={COMPACTION_COLOR}
          label={`Compaction (${c.method})`}
          value={`${compactTokens(c.pre_tokens)} → ${compactTokens(c.post_tokens)}, ${Math.round(c.retention_rate * 100)}% kept`}
        />
      ))}
    </TooltipBox>
  );
}
