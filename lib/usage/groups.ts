// Usage grouped by day, session or model over a time range, in one statement: whole UTC days
// from the daily rollup, the partial days at the edges from the calls, compactions from their
// log, summed per group. The limit keeps the groups that matter most (the latest days, the
// most expensive sessions and models); totals cover every group.
import type { Tx } from "@/lib/db";
import { CALL_ERROR_SQL, metricsOf, SUM_COLUMNS, ZERO_SUMS, type MetricSums } from "./metrics";
import type { RangeSplit } from "./range";
import type { DayRowJson, ModelRowJson, SessionRowJson, UsageMetrics } from "./types";

export type Grouping = "day" | "session" | "model";

interface GroupSql {
  /** The group key in llm_usage_daily, llm_calls and compaction_logs. */
  rollup: string;
  calls: string;
  compactions: string;
  /** Which groups survive the limit. */
  rank: string;
  /** How the returned rows are ordered. */
  order: string;
}

const BY_COST = "cost_usd desc, requests desc, k nulls last";

const GROUPS: Record<Grouping, GroupSql> = {
  day: {
    rollup: "day",
    calls: "(created_at at time zone 'UTC')::date",
    compactions: "(created_at at time zone 'UTC')::date",
    rank: "k desc",
    order: "k",
  },
  session: { rollup: "session_id", calls: "session_id", compactions: "session_id", rank: BY_COST, order: BY_COST },
  model: { rollup: "model", calls: "model", compactions: "model", rank: BY_COST, order: BY_COST },
};

export interface GroupQuery {
  split: RangeSplit;
  sessionId: string | null;
  limit: number;
}

type Totals = { [K in keyof MetricSums as `t_${K}`]: number };

interface RawGroup extends MetricSums, Totals {
  k: string | null;
  title: string | null;
  session_found: boolean;
  total_rows: number;
}

export interface GroupResult<R> {
  rows: R[];
  totals: UsageMetrics;
  total_rows: number;
}

const list = (f: (c: string) => string) => SUM_COLUMNS.map(f).join(", ");

/**
 * $1 user, $2..$3 whole days, $4..$5 and $6..$7 the partial days, $8..$9 the whole range
 * (compactions), $10 limit, $11 session (only when filtering by one).
 */
function statement(grouping: Grouping, bySession: boolean): string {
  const g = GROUPS[grouping];
  const session = bySession ? "and session_id = $11" : "";
  const calls = (from: string, to: string) => `
    select ${g.calls} as k, 1 as requests, input_tokens, output_tokens, cache_creation_input_tokens,
      cache_read_input_tokens, cost_usd, 0 as compactions, (err is not null)::int as cal_n,
      coalesce(abs(err), 0) as cal_abs, coalesce(err, 0) as cal_err
    from (select *, ${CALL_ERROR_SQL} as err from llm_calls
          where user_id = $1 and created_at >= ${from} and created_at < ${to} ${session}) c`;
  const title =
    grouping === "session"
      ? "s.title, s.id is not null as session_found from ranked left join sessions s on s.id = ranked.k and s.user_id = $1"
      : "null::text as title, false as session_found from ranked";
  return `
    with parts as (
      select ${g.rollup} as k, requests, input_tokens, output_tokens, cache_creation_input_tokens,
        cache_read_input_tokens, cost_usd, 0 as compactions, calibration_calls as cal_n,
        calibration_abs_error as cal_abs, calibration_error as cal_err
      from llm_usage_daily where user_id = $1 and day >= $2::date and day < $3::date ${session}
      union all ${calls("$4", "$5")}
      union all ${calls("$6", "$7")}
      union all
      select ${g.compactions}, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0
      from compaction_logs where user_id = $1 and created_at >= $8 and created_at < $9 ${session}
    ), groups as (
      select k, ${list((c) => `sum(${c})::float8 as ${c}`)} from parts group by k
    ), ranked as (
      select groups.*, row_number() over (order by ${g.rank}) as rank, (count(*) over ())::int as total_rows,
        ${list((c) => `(sum(${c}) over ())::float8 as t_${c}`)}
      from groups
    )
    select ranked.k::text as k, ${list((c) => `ranked.${c}`)}, ${list((c) => `ranked.t_${c}`)}, ranked.total_rows, ${title}
    where ranked.rank <= $10
    order by ${g.order.replace(/\b(cost_usd|requests|k)\b/g, "ranked.$1")}`;
}

interface RowOf {
  day: DayRowJson;
  session: SessionRowJson;
  model: ModelRowJson;
}

/** One row per group, with the range's totals; `limit` keeps the groups that rank first. */
export async function groupedUsage<G extends Grouping>(tx: Tx, userId: string, grouping: G, q: GroupQuery): Promise<GroupResult<RowOf[G]>> {
  const { split } = q;
  const params: unknown[] = [
    userId,
    split.wholeDays.fromDay,
    split.wholeDays.toDay,
    split.head.from,
    split.head.to,
    split.tail.from,
    split.tail.to,
    split.range.from,
    split.range.to,
    q.limit,
  ];
  if (q.sessionId !== null) params.push(q.sessionId);
  const raw = await tx.query<RawGroup>(statement(grouping, q.sessionId !== null), params);
  const totalsRow = raw[0];
  const totals = metricsOf(totalsRow ? totalsOf(totalsRow) : ZERO_SUMS);
  const rows = raw.map((r): RowOf[Grouping] => {
    const m = metricsOf(r);
    if (grouping === "day") return { day: r.k ?? "", ...m };
    if (grouping === "model") return { model: r.k, ...m };
    return { session_id: r.k, title: r.title, deleted: r.k !== null && !r.session_found, ...m };
  }) as RowOf[G][];
  return { rows, totals, total_rows: totalsRow?.total_rows ?? 0 };
}

function totalsOf(r: Totals): MetricSums {
  const out = { ...ZERO_SUMS };
  for (const c of SUM_COLUMNS) out[c] = r[`t_${c}`];
  return out;
}
