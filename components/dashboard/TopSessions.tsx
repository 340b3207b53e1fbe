"use client";
// The range's most expensive sessions, each with a way into its turn-by-turn view.
import { useState } from "react";
import type { SessionRowJson } from "@/lib/contract";
import { compactTokens, percent, sessionName, usd } from "./format";
import { Card, NothingYet } from "./Card";

const SHOWN = 8;

export function TopSessions({
  sessions,
  selected,
  onSelect,
}: {
  sessions: SessionRowJson[];
  selected: string | null;
  onSelect(id: string): void;
}) {
  const [all, setAll] = useState(false);
  const max = Math.max(...sessions.map((s) => s.cost_usd), 0);
  const shown = all ? sessions : sessions.slice(0, SHOWN);
  return (
    <Card testId="top-sessions" title="Most expensive sessions" description="In this range, with their cache hit rate. Pick one to see it turn by turn.">
      {sessions.length === 0 ? (
        <NothingYet>No sessions with calls in this range.</NothingYet>
      ) : (
        <>
          <ol className="space-y-1">
            {shown.map((s) => {
              const current = s.session_id !== null && s.session_id === selected;
              return (
                <li key={s.session_id ?? "none"}>
                  <button
                    type="button"
                    data-testid="top-session"
                    data-session-id={s.session_id ?? ""}
                    disabled={s.session_id === null}
                    aria-pressed={current}
                    onClick={() => s.session_id && onSelect(s.session_id)}
                    className={`w-full rounded-lg px-2 py-1.5 text-left transition-colors disabled:cursor-default ${
                      current ? "bg-zinc-100 dark:bg-zinc-800" : "hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
                    }`}
                  >
                    <span className="flex items-baseline justify-between gap-3 text-sm">
                      <span className={`min-w-0 truncate ${s.deleted ? "italic text-zinc-500 dark:text-zinc-400" : "text-zinc-900 dark:text-zinc-100"}`}>
                        {sessionName(s)}
                      </span>
                      <span className="shrink-0 font-medium tabular-nums text-zinc-900 dark:text-zinc-100">{usd(s.cost_usd)}</span>
                    </span>
                    <span className="mt-1 block h-1.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800">
                      <span className="block h-full rounded-full bg-sky-500" style={{ width: `${max > 0 ? (100 * s.cost_usd) / max : 0}%` }} />
                    </span>
                    <span className="mt-0.5 block text-[11px] text-zinc-600 dark:text-zinc-400">
                      {s.requests} request{s.requests === 1 ? "" : "s"} · {compactTokens(s.input_tokens + s.cache_creation_input_tokens + s.cache_read_input_tokens)} in ·{" "}
                      {compactTokens(s.output_tokens)} out · cache {percent(s.cache_hit_rate === null ? null : s.cache_hit_rate * 100)}
                      {s.compactions > 0 && ` · ${s.compactions} compaction${s.compactions === 1 ? "" : "s"}`}
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
          {sessions.length > SHOWN && (
            <button
              type="button"
              onClick={() => setAll((v) => !v)}
              className="mt-2 text-xs font-medium text-sky-700 hover:underline dark:text-sky-400"
            >
              {all ? "Show fewer" : `Show all ${sessions.length}`}
            </button>
          )}
        </>
      )}
    </Card>
  );
}
