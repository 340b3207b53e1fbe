// Usage grouped by day, session or model over a time range: the rows and totals of one
// statement (lib/db/usage/groups.ts) as report rows, with their metrics.
import "server-only";
import type { Tx } from "@/lib/db";
import { usageGroups, type GroupQuery, type Grouping } from "@/lib/db/usage/groups";
import { metricsOf, sumsFromArray } from "./metrics";
import type { DayRowJson, ModelRowJson, SessionRowJson, UsageMetrics } from "@/lib/contract/usage";

export type { Grouping, GroupQuery };

export interface GroupResult<R> {
  rows: R[];
  totals: UsageMetrics;
  total_rows: number;
}

interface RowOf {
  day: DayRowJson;
  session: SessionRowJson;
  model: ModelRowJson;
}

async function run<G extends Grouping>(tx: Tx, userId: string, grouping: G, q: GroupQuery, withTotals: boolean) {
  const { doc, priced } = await usageGroups(tx, userId, grouping, q, withTotals);
  // Object.assign, not object spread: spreading a second object into a literal takes V8's slow
  // path, about 50 times slower here, and these run once per row.
  const rows = doc.rows.map((raw): RowOf[Grouping] => {
    const [k, title] = raw;
    const m = metricsOf(sumsFromArray(raw, 2), priced);
    if (grouping === "day") return Object.assign({ day: k ?? "" }, m);
    if (grouping === "model") return Object.assign({ model: k }, m);
    return Object.assign({ session_id: k, title, deleted: k !== null && title === null }, m);
  }) as RowOf[G][];
  return { rows, doc, priced };
}

/** One row per group, with the range's totals; `limit` keeps the groups that rank first. */
export async function groupedUsage<G extends Grouping>(tx: Tx, userId: string, grouping: G, q: GroupQuery): Promise<GroupResult<RowOf[G]>> {
  const { rows, doc, priced } = await run(tx, userId, grouping, q, true);
  return { rows, totals: metricsOf(sumsFromArray(doc.totals ?? []), priced), total_rows: doc.total_rows ?? 0 };
}

/** The groups that rank first, without totals (which cost a pass over every group). */
export async function topGroups<G extends Grouping>(tx: Tx, userId: string, grouping: G, q: GroupQuery): Promise<RowOf[G][]> {
  return (await run(tx, userId, grouping, q, false)).rows;
}
