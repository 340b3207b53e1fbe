"use client";
// The usage dashboard: one summary request for the range (days, totals, the most expensive
// sessions, compactions) and one for the chosen session's turns.
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { ArrowLeft, Download } from "lucide-react";
import { csvHref, rangeStart, usageSummary } from "@/lib/client/api/usage";
import { CacheChart } from "./CacheChart";
import { CalibrationChart } from "./CalibrationChart";
import { CompactionsChart } from "./CompactionsChart";
import { dayPoints } from "./days";
import { EmptyState } from "./EmptyState";
import { ErrorNotice, Skeleton } from "./Card";
import { SummaryCards } from "./SummaryCards";
import { TokensChart } from "./TokensChart";
import { TopSessions } from "./TopSessions";
import { TurnChart } from "./TurnChart";
import { useAsync } from "./useAsync";

const RANGES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

/** `?session=` names the session of the turn view, so a link can open it. */
function sessionFromUrl(): string | null {
  if (typeof window === "undefined") return null;
  return new URL(window.location.href).searchParams.get("session");
}

export function Dashboard() {
  const [days, setDays] = useState(30);
  // Fixed per range choice, so the charts' day axis and the request agree.
  const from = useMemo(() => rangeStart(days), [days]);
  const summary = useAsync((signal) => usageSummary(from, { signal }), [from]);
  const [picked, setPicked] = useState<string | null>(null);
  useEffect(() => setPicked(sessionFromUrl()), []);

  const data = summary.data;
  const points = useMemo(() => (data ? dayPoints(data.days, data.from) : []), [data]);
  const selected = picked ?? data?.top_sessions.find((s) => s.session_id !== null)?.session_id ?? null;

  const select = (id: string) => {
    setPicked(id);
    const url = new URL(window.location.href);
    url.searchParams.set("session", id);
    window.history.replaceState(null, "", url);
  };

  return (
    <div className="min-h-dvh bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100" data-testid="dashboard">
      <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2.5">
          <Link href="/" className="inline-flex items-center gap-1 text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100">
            <ArrowLeft aria-hidden className="h-4 w-4" />
            Chats
          </Link>
          <h1 className="text-base font-semibold">Usage and cost</h1>
          <div className="ml-auto flex items-center gap-2">
            <div role="group" aria-label="Range" className="inline-flex rounded-md border border-zinc-200 p-0.5 text-xs dark:border-zinc-700">
              {RANGES.map((r) => (
                <button
                  key={r.days}
                  type="button"
                  data-testid={`range-${r.days}`}
                  aria-pressed={days === r.days}
                  onClick={() => setDays(r.days)}
                  className={`rounded px-2 py-1 ${
                    days === r.days
                      ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900"
                      : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                  }`}
                >
                  {r.label}
                </button>
              ))}
            </div>
            <a
              href={csvHref({ group_by: "day", from })}
              download
              title="Download the days of this range as CSV"
              className="inline-flex items-center gap-1 rounded-md border border-zinc-300 px-2 py-1 text-xs text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              <Download aria-hidden className="h-3.5 w-3.5" />
              CSV
            </a>
          </div>
        </div>
      </header>

      <main className="mx-auto max-w-6xl space-y-4 px-4 py-4">
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          The last {days} days in UTC, today included, up to now. Costs are what each call cost at the prices of the day it was made.
        </p>
        {summary.status === "error" && <ErrorNotice message={summary.error} onRetry={summary.reload} />}
        {!data && summary.status === "loading" && <Loading />}
        {data && !data.has_usage && <EmptyState offline={data.offline} />}
        {data && data.has_usage && (
          <div className={`space-y-4 transition-opacity ${summary.status === "loading" ? "opacity-60" : ""}`} aria-busy={summary.status === "loading"}>
            <SummaryCards totals={data.totals} />
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <TokensChart days={points} />
              <CacheChart days={points} overall={data.totals.cache_hit_rate} />
              <CalibrationChart days={points} overall={data.totals.calibration_error_percent} />
              <CompactionsChart compactions={data.compactions} total={data.totals.compactions} />
              <TopSessions sessions={data.top_sessions} selected={selected} onSelect={select} />
              <TurnChart sessions={data.top_sessions} selected={selected} onSelect={select} />
            </div>
          </div>
        )}
      </main>
    </div>
  );
}

function Loading() {
  return (
    <div className="space-y-4" data-testid="dashboard-loading" aria-busy>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-6">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-16" />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Skeleton className="h-72 lg:col-span-2" />
        <Skeleton className="h-60" />
        <Skeleton className="h-60" />
      </div>
    </div>
  );
}
