// The figures every usage row carries, from the sums the queries return (lib/db/usage/sums.ts).
import "server-only";
import { SUM_COLUMNS, type MetricSums } from "@/lib/db/usage/sums";
import type { UsageMetrics } from "@/lib/contract/usage";

export type { MetricSums };

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * The recorded cost split by token kind in the proportions of each model's list prices: exact
 * for every call billed at its model's base rate; a long-context surcharge is spread over the
 * kinds. Null where the rows had no model to price (the per-session rollup).
 */
function costByKind(s: MetricSums): UsageMetrics["cost_by_kind"] {
  const list = s.list_in + s.list_out + s.list_w + s.list_r;
  if (list <= 0) return s.cost_usd > 0 ? null : { input: 0, output: 0, cache_write: 0, cache_read: 0 };
  const f = s.cost_usd / list;
  return {
    input: round(s.list_in * f, 9),
    output: round(s.list_out * f, 9),
    cache_write: round(s.list_w * f, 9),
    cache_read: round(s.list_r * f, 9),
  };
}

export function metricsOf(s: MetricSums, priced = true): UsageMetrics {
  const allInput = s.input_tokens + s.cache_creation_input_tokens + s.cache_read_input_tokens;
  return {
    requests: s.requests,
    input_tokens: s.input_tokens,
    output_tokens: s.output_tokens,
    cache_creation_input_tokens: s.cache_creation_input_tokens,
    cache_read_input_tokens: s.cache_read_input_tokens,
    // Sums of many float costs pick up noise in the 17th digit; a nano-dollar is plenty.
    cost_usd: round(s.cost_usd, 9),
    cost_by_kind: priced ? costByKind(s) : null,
    compactions: s.compactions,
    cache_hit_rate: allInput > 0 ? round(s.cache_read_input_tokens / allInput, 4) : null,
    calibration_calls: s.cal_n,
    calibration_error_percent: s.cal_n > 0 ? round((100 * s.cal_abs) / s.cal_n, 2) : null,
    calibration_bias_percent: s.cal_n > 0 ? round((100 * s.cal_err) / s.cal_n, 2) : null,
  };
}

export const ZERO_SUMS: MetricSums = {
  requests: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0,
  compactions: 0,
  cal_n: 0,
  cal_abs: 0,
  cal_err: 0,
  list_in: 0,
  list_out: 0,
  list_w: 0,
  list_r: 0,
};

/** Sums written by a statement as a JSON array in SUM_COLUMNS order, from index `at` on. */
export function sumsFromArray(values: readonly unknown[], at = 0): MetricSums {
  const out = Object.assign({}, ZERO_SUMS);
  for (let i = 0; i < SUM_COLUMNS.length; i++) out[SUM_COLUMNS[i]] = Number(values[at + i] ?? 0);
  return out;
}
