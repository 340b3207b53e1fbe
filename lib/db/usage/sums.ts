// What every usage statement shares: the sums it returns (float8, cast in SQL: bigint would
// arrive as a string from postgres.js or a BigInt from PGlite), the list prices it splits cost
// by, the calibration error of a call, and the time ranges it reads.
import "server-only";
import { MODELS } from "@/lib/models";

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
  /** The same tokens at list prices, by kind: how cost_usd splits (see costByKind in lib/usage/metrics.ts). */
  list_in: number;
  list_out: number;
  list_w: number;
  list_r: number;
}

/** The order in which statements write a row's sums into a JSON array (read back by sumsFromArray). */
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

/** The parameter pricesSql reads: the model registry's prices, per token. */
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

/** A half-open interval [from, to) of instants. */
export interface Interval {
  from: Date;
  to: Date;
}

/** A range split into what the rollups answer and what the calls do (lib/usage/range.ts makes it). */
export interface RangeSplit {
  range: Interval;
  /** Whole UTC days [fromDay, toDay) (YYYY-MM-DD), read from the rollups; empty when equal. */
  wholeDays: { fromDay: string; toDay: string };
  /** The partial days at either end, read from the calls; either may be empty (from = to). */
  head: Interval;
  tail: Interval;
}
