// The figures every usage row carries, from the sums the queries return. Sums come back as
// float8 (cast in SQL): bigint would arrive as a string (postgres.js) or a BigInt (PGlite).
import type { UsageMetrics } from "./types";

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
] as const satisfies readonly (keyof MetricSums)[];

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

export function metricsOf(s: MetricSums): UsageMetrics {
  const allInput = s.input_tokens + s.cache_creation_input_tokens + s.cache_read_input_tokens;
  return {
    requests: s.requests,
    input_tokens: s.input_tokens,
    output_tokens: s.output_tokens,
    cache_creation_input_tokens: s.cache_creation_input_tokens,
    cache_read_input_tokens: s.cache_read_input_tokens,
    // Sums of many float costs pick up noise in the 17th digit; a nano-dollar is plenty.
    cost_usd: round(s.cost_usd, 9),
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
};

export function addSums(a: MetricSums, b: MetricSums): MetricSums {
  const out = { ...a };
  for (const k of SUM_COLUMNS) out[k] = a[k] + b[k];
  return out;
}
