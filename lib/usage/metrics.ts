// The figures every usage row carries, from the sums the queries return. Sums come back as
// float8 (cast in SQL): bigint would arrive as a string (postgres.js) or a BigInt (PGlite).
import "server-only";
import { MODELS } from "@/lib/models";
import type { UsageMetrics } from "@/lib/contract/usage";

/** Column sums as every usage query names them. */
export interface MetricSums {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  compactions: number;
  cal_n: number;
  cal_abs: number;
  cal_err: number;
  /** The same tokens at list prices, by kind: how cost_usd splits (see costByKind). */
  list_in: number;
  list_out: number;
  list_w: number;
  list_r: number;
}

export const SUM_COLUMNS = [
  "requests",
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "cost_usd",
  "compactions",
  "cal_n",
  "cal_abs",
  "cal_err",
  "list_in",
  "list_out",
  "list_w",
  "list_r",
] as const satisfies readonly (keyof MetricSums)[];

/**
 * Each model's list prices in USD per token, as a SQL relation from a jsonb parameter. Its
 * column names clash with no usage table's, so rows joined to it need no qualifying.
 */
export function pricesSql(placeholder: string): string {
  return `select * from jsonb_to_recordset(${placeholder}::jsonb)
    as p(price_model text, price_in float8, price_out float8, price_write float8, price_read float8)`;
}

export function pricesParam(): string {
  return JSON.stringify(
    MODELS.map((m) => ({
      price_model: m.id,
      price_in: m.price.inputPerMTok / 1e6,
      price_out: m.price.outputPerMTok / 1e6,
      price_write: m.price.cacheWritePerMTok / 1e6,
      price_read: m.price.cacheReadPerMTok / 1e6,
    })),
  );
}

/** List-price columns of a usage row joined to the prices on its model (unknown models: 0). */
export const LIST_SQL = `coalesce(input_tokens * price_in, 0) as list_in, coalesce(output_tokens * price_out, 0) as list_out,
  coalesce(cache_creation_input_tokens * price_write, 0) as list_w, coalesce(cache_read_input_tokens * price_read, 0) as list_r`;

/**
 * The signed calibration error of one chat call, as a SQL expression over llm_calls columns:
 * null for calls without an estimate. Measured = everything the API counted as input.
 */
export const CALL_ERROR_SQL = `case when kind = 'chat' and estimated_input_tokens is not null
    and input_tokens + cache_creation_input_tokens + cache_read_input_tokens > 0
  then (estimated_input_tokens - (input_tokens + cache_creation_input_tokens + cache_read_input_tokens))::float8
    / (input_tokens + cache_creation_input_tokens + cache_read_input_tokens) end`;

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
