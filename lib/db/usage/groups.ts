// Usage grouped by day, session or model over a time range, in one statement: whole UTC days
// from the daily rollups, the partial days at the edges from the calls, compactions from their
// log, summed per group. The limit keeps the groups that matter most (the latest days, the
// most expensive sessions and models); totals cover every group. lib/usage/groups.ts turns
// what it returns into report rows.
import "server-only";
import type { Tx } from "../driver";
import { CALL_ERROR_SQL, LIST_SQL, pricesParam, pricesSql, SUM_COLUMNS, type RangeSplit } from "./sums";

export type Grouping = "day" | "session" | "model";

interface GroupSql {
  /** The group key: a rollup column, and the same of a call or compaction (by its time). */
  key: string;
  event: string;
  /** Which groups survive the limit, and how the returned rows are ordered (over their sums). */
  rank: string;
  /** Rows are returned in another order than ranked (the latest days, oldest first). */
  order?: string;
  /**
   * The rank reads sums: the groups are ranked on those alone first, and only the kept ones
   * summed in full. Summing every column of thousands of sessions to return ten took most
   * of a year's top-sessions query.
   */
  bySums: boolean;
}

const BY_COST = "cost_usd desc, requests desc, k nulls last";

const GROUPS: Record<Grouping, GroupSql> = {
  day: { key: "day", event: "(created_at at time zone 'UTC')::date", rank: "k desc", order: "k", bySums: false },
  session: { key: "session_id", event: "session_id", rank: BY_COST, bySums: true },
  model: { key: "model", event: "model", rank: BY_COST, bySums: true },
};

/** An ordering over the sums of `t`'s columns, or over sum(column) when `t` is empty. */
function over(ordering: string, t: string): string {
  return ordering.replace(/\b(cost_usd|requests|k)\b/g, (c) => (t ? `${t}.${c}` : c === "k" ? c : `sum(${c})`));
}

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

const cols = (f: (c: string) => string) => SUM_COLUMNS.map(f).join(", ");

/** The list-price columns: not summed where the split is not given (no model to price by). */
const LIST_COLUMNS: ReadonlySet<string> = new Set(["list_in", "list_out", "list_w", "list_r"]);

/** The statement and its parameters; placeholders are numbered as values are added. */
function statement(
  userId: string,
  grouping: Grouping,
  q: GroupQuery,
  withTotals: boolean,
): { sql: string; params: unknown[]; priced: boolean } {
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  const g = GROUPS[grouping];
  const { split } = q;
  const rollup = rollupOf(grouping, q.sessionId !== null);
  const user = p(userId);
  const limit = p(q.limit);
  const session = q.sessionId !== null ? `and session_id = ${p(q.sessionId)}` : "";
  // Only the parts of the range that hold something: a range of whole days up to now (what the
  // dashboard asks for) reads the rollup alone.
  const edges = [split.head, split.tail].filter((e) => e.from.getTime() < e.to.getTime()).map((e) => [p(e.from), p(e.to)]);
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
  const logged = rollup.compactions ? edges.map(compactions) : [compactions([p(split.range.from), p(split.range.to)])];
  const others = [...edges.map(calls), ...logged].map((part) => `union all ${part}`).join("\n");
  const needsPrices = rollup.models || edges.length > 0;
  // A lookup per returned row (by primary key), not a join the planner may answer by reading
  // every session of the user to name ten of them.
  const title =
    grouping === "session" ? `(select title from sessions where id = ranked.k and user_id = ${user})` : "null::text";
  const sums = (t: string) => cols((c) => `${t}.${c}`);
  const sum = (c: string) => (!rollup.models && LIST_COLUMNS.has(c) ? "0::float8" : `sum(${c})::float8`);
  // `parts` is read once per CTE below. Rollup rows are cheap to read again, cheaper than
  // storing them; calls (the partial days at the edges) are priced and checked row by row,
  // so those are read once and kept.
  const summed = (where: string) => `select k, ${cols((c) => `${sum(c)} as ${c}`)} from parts ${where} group by k`;
  // The groups to return: ranked on their sums alone, or summed in full (days: few, all kept).
  const keep = g.bySums
    ? `kept as (select k from parts group by k order by ${over(g.rank, "")} limit ${limit}),
       ranked as (${summed("where k in (select k from kept) or (k is null and exists (select from kept where k is null))")})`
    : `groups as (${summed("")}), ranked as (select * from groups order by ${g.rank} limit ${limit})`;
  const totals = g.bySums
    ? `select count(distinct k)::int + coalesce(bool_or(k is null), false)::int as n, ${cols((c) => `coalesce(${sum(c)}, 0) as ${c}`)} from parts`
    : `select count(*)::int as n, ${cols((c) => `coalesce(sum(${c}), 0)::float8 as ${c}`)} from groups`;
  // One JSON text, not a row per group: PGlite hands rows to JavaScript value by value, which
  // costs more than every other part of the query together.
  const sql = `
    with ${needsPrices ? `prices as (${pricesSql(p(pricesParam()))}),` : ""}
    parts as ${edges.length > 0 ? "materialized" : "not materialized"} (
      select ${g.key} as k, requests, input_tokens, output_tokens, cache_creation_input_tokens,
        cache_read_input_tokens, cost_usd, ${rollup.compactions ? "compactions" : "0"} as compactions,
        calibration_calls as cal_n, calibration_abs_error as cal_abs, calibration_error as cal_err,
        ${rollup.models ? LIST_SQL : "0 as list_in, 0 as list_out, 0 as list_w, 0 as list_r"}
      from ${rollup.table} ${rollup.models ? prices : ""}
      where user_id = ${user} and day >= ${p(split.wholeDays.fromDay)}::date and day < ${p(split.wholeDays.toDay)}::date ${session}
      ${others}
    ), ${keep}${withTotals ? `, totals as (${totals})` : ""}
    select json_build_object(
      'rows', (select coalesce(json_agg(json_build_array(ranked.k::text, ${title}, ${sums("ranked")})
                 order by ${over(g.order ?? g.rank, "ranked")}), '[]') from ranked)
      ${withTotals ? `, 'totals', (select json_build_array(${sums("totals")}) from totals), 'total_rows', (select n from totals)` : ""}
    )::text as doc`;
  // A split by kind needs every row priced: the per-session rollup has no model.
  return { sql, params, priced: rollup.models };
}

/** A group as the statement writes it: key, title (sessions only), then SUM_COLUMNS in order. */
export type RawGroup = [string | null, string | null, ...number[]];

export interface GroupsDoc {
  rows: RawGroup[];
  totals?: number[];
  total_rows?: number;
}

/**
 * The groups that rank first as one JSON document (and, `withTotals`, the range's totals and
 * how many groups it has); `priced`: whether its rows could be priced by token kind.
 */
export async function usageGroups(
  tx: Tx,
  userId: string,
  grouping: Grouping,
  q: GroupQuery,
  withTotals: boolean,
): Promise<{ doc: GroupsDoc; priced: boolean }> {
  const { sql, params, priced } = statement(userId, grouping, q, withTotals);
  const [row] = await tx.query<{ doc: string }>(sql, params);
  return { doc: JSON.parse(row.doc) as GroupsDoc, priced };
}
