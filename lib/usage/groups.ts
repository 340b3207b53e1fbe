// Usage grouped by day, session or model over a time range, in one statement: whole UTC days
// from the daily rollups, the partial days at the edges from the calls, compactions from their
// log, summed per group. The limit keeps the groups that matter most (the latest days, the
// most expensive sessions and models); totals cover every group.
import type { Tx } from "@/lib/db";
import { CALL_ERROR_SQL, LIST_SQL, metricsOf, pricesParam, pricesSql, SUM_COLUMNS, ZERO_SUMS, type MetricSums } from "./metrics";
import type { RangeSplit } from "./range";
import type { DayRowJson, ModelRowJson, SessionRowJson, UsageMetrics } from "./types";

export type Grouping = "day" | "session" | "model";

interface GroupSql {
  /** The group key: a rollup column, and the same of a call or compaction (by its time). */
  key: string;
  event: string;
  /** Which groups survive the limit. */
  rank: string;
  /** How the returned rows are ordered. */
  order: string;
}

const BY_COST = "cost_usd desc, requests desc, k nulls last";

const GROUPS: Record<Grouping, GroupSql> = {
  day: { key: "day", event: "(created_at at time zone 'UTC')::date", rank: "k desc", order: "k" },
  session: { key: "session_id", event: "session_id", rank: BY_COST, order: BY_COST },
  model: { key: "model", event: "model", rank: BY_COST, order: BY_COST },
};

/**
 * The coarsest rollup that has the group key (and the session, when filtering by one). Only
 * llm_usage_daily, the finest, lacks compaction counts: with it they come from the log.
 */
function rollupOf(grouping: Grouping, bySession: boolean): { table: string; compactions: boolean; models: boolean } {
  if (grouping === "session" || (bySession && grouping === "day")) {
    return { table: "llm_usage_day_sessions", compactions: true, models: false };
  }
  if (!bySession) return { table: "llm_usage_day_models", compactions: true, models: true };
  return { table: "llm_usage_daily", compactions: false, models: true };
}

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

const cols = (f: (c: string) => string) => SUM_COLUMNS.map(f).join(", ");

/** The statement and its parameters; placeholders are numbered as values are added. */
function statement(userId: string, grouping: Grouping, q: GroupQuery): { sql: string; params: unknown[]; priced: boolean } {
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  const g = GROUPS[grouping];
  const { split } = q;
  const rollup = rollupOf(grouping, q.sessionId !== null);
  const user = p(userId);
  const session = q.sessionId !== null ? `and session_id = ${p(q.sessionId)}` : "";
  const head = [p(split.head.from), p(split.head.to)];
  const tail = [p(split.tail.from), p(split.tail.to)];
  const prices = "left join prices on price_model = model";
  const calls = ([from, to]: string[]) => `
    select ${g.event} as k, 1 as requests, input_tokens, output_tokens, cache_creation_input_tokens,
      cache_read_input_tokens, cost_usd, 0 as compactions, (err is not null)::int as cal_n,
      coalesce(abs(err), 0) as cal_abs, coalesce(err, 0) as cal_err, ${LIST_SQL}
    from (select *, ${CALL_ERROR_SQL} as err from llm_calls
          where user_id = ${user} and created_at >= ${from} and created_at < ${to} ${session}) c
    ${prices}`;
  const compactions = ([from, to]: string[]) => `
    select ${g.event}, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
    from compaction_logs where user_id = ${user} and created_at >= ${from} and created_at < ${to} ${session}`;
  // Compactions of whole days are counted in the rollup when it has them; the log answers the rest.
  const logged = rollup.compactions
    ? [compactions(head), compactions(tail)]
    : [compactions([p(split.range.from), p(split.range.to)])];
  // A lookup per returned row (by primary key), not a join the planner may answer by reading
  // every session of the user to name ten of them.
  const title =
    grouping === "session"
      ? `s.title, s.title is not null as session_found from ranked
         left join lateral (select title from sessions where id = ranked.k and user_id = ${user}) s on true`
      : "null::text as title, false as session_found from ranked";
  const sql = `
    with prices as (${pricesSql(p(pricesParam()))}),
    parts as (
      select ${g.key} as k, requests, input_tokens, output_tokens, cache_creation_input_tokens,
        cache_read_input_tokens, cost_usd, ${rollup.compactions ? "compactions" : "0"} as compactions,
        calibration_calls as cal_n, calibration_abs_error as cal_abs, calibration_error as cal_err,
        ${rollup.models ? LIST_SQL : "0 as list_in, 0 as list_out, 0 as list_w, 0 as list_r"}
      from ${rollup.table} ${rollup.models ? prices : ""}
      where user_id = ${user} and day >= ${p(split.wholeDays.fromDay)}::date and day < ${p(split.wholeDays.toDay)}::date ${session}
      union all ${calls(head)}
      union all ${calls(tail)}
      union all ${logged.join(" union all ")}
    ), groups as (
      select k, ${cols((c) => `sum(${c})::float8 as ${c}`)} from parts group by k
    ), ranked as (
      select groups.*, row_number() over (order by ${g.rank}) as rank, (count(*) over ())::int as total_rows,
        ${cols((c) => `(sum(${c}) over ())::float8 as t_${c}`)}
      from groups
    )
    select ranked.k::text as k, ${cols((c) => `ranked.${c}`)}, ${cols((c) => `ranked.t_${c}`)}, ranked.total_rows, ${title}
    where ranked.rank <= ${p(q.limit)}
    order by ${g.order.replace(/\b(cost_usd|requests|k)\b/g, "ranked.$1")}`;
  // A split by kind needs every row priced: the per-session rollup has no model.
  return { sql, params, priced: rollup.models };
}

interface RowOf {
  day: DayRowJson;
  session: SessionRowJson;
  model: ModelRowJson;
}

/** One row per group, with the range's totals; `limit` keeps the groups that rank first. */
export async function groupedUsage<G extends Grouping>(tx: Tx, userId: string, grouping: G, q: GroupQuery): Promise<GroupResult<RowOf[G]>> {
  const { sql, params, priced } = statement(userId, grouping, q);
  const raw = await tx.query<RawGroup>(sql, params);
  const totalsRow = raw[0];
  const totals = metricsOf(totalsRow ? totalsOf(totalsRow) : ZERO_SUMS, priced);
  const rows = raw.map((r): RowOf[Grouping] => {
    const m = metricsOf(r, priced);
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
