// Prometheus metrics: one registry per process, served by GET /api/metrics (lib/operations/metrics.ts
// adds what is read at scrape time). The counters are plain in-memory numbers, so counting costs
// a few nanoseconds on the paths that count: turns (lib/turn/send.ts), Claude calls (lib/llm),
// compactions (lib/operations/compact.ts) and refusals (lib/limits). Each instance serves its
// own figures; Prometheus adds them up across instances.
//
// On globalThis, like the database: Next.js evaluates a module once per bundle layer, and
// instrumentation.ts and the route handlers must count into the same registry. Created on first
// use, never at import, so `next build` (which evaluates route modules) starts no collectors.
import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export type TurnOutcome = "complete" | "stopped" | "failed";
/** What a call to Claude was for: a reply, a count_tokens request, a summary, a session's title. */
export type ClaudeCallKind = "chat" | "count_tokens" | "summary" | "title";
export type RefusedBucket = "requests" | "sends" | "budget" | "failed_auth";

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const m = {
    registry,
    turns: new Counter({
      name: "threadkeeper_turns_total",
      help: "Turns run (a send, retry, regenerate or drop-in request), by outcome: complete, stopped (by the user or a shutdown), failed.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    turnDuration: new Histogram({
      name: "threadkeeper_turn_duration_seconds",
      help: "From the saved user message to the saved reply and its status (tool rounds included; the checkpoint and compaction after it are not).",
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160, 320],
      registers,
    }),
    claudeRequests: new Counter({
      name: "threadkeeper_claude_requests_total",
      help: "Calls to the Anthropic API after the SDK's own retries, by kind (chat, count_tokens, summary, title) and status (ok, the HTTP status, timeout, aborted, connection, error).",
      labelNames: ["kind", "status"] as const,
      registers,
    }),
    claudeDuration: new Histogram({
      name: "threadkeeper_claude_request_duration_seconds",
      help: "Duration of a call to the Anthropic API (a streamed reply: until its last event), retries included, by kind.",
      labelNames: ["kind"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160, 320],
      registers,
    }),
    compactions: new Counter({
      name: "threadkeeper_compactions_total",
      help: "Compactions applied, by method (llm, extractive, sliding) and trigger (manual, auto, error_recovery).",
      labelNames: ["method", "trigger"] as const,
      registers,
    }),
    tokens: new Counter({
      name: "threadkeeper_tokens_total",
      help: "Tokens the Anthropic API billed, by direction: input (uncached), output, cache_read, cache_write.",
      labelNames: ["direction"] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "threadkeeper_rate_limit_refusals_total",
      help: "Requests refused with 429, by bucket: requests and sends (per minute), budget (the daily token budget), failed_auth (API keys that failed, per client address, before any lookup).",
      labelNames: ["bucket"] as const,
      registers,
    }),
    webhookQueueDepth: new Gauge({
      name: "threadkeeper_webhook_queue_depth",
      help: "Webhook deliveries waiting to be sent (pending, or being delivered), across all users; read at scrape time.",
      registers,
    }),
    dbPool: new Gauge({
      name: "threadkeeper_db_pool",
      help: "Database connections of this instance: in_use (held by a transaction) and max (the pool's size; PGlite: 1).",
      labelNames: ["state"] as const,
      registers,
    }),
  };
  // Every series a dashboard expects is there from the start, at 0.
  for (const outcome of ["complete", "stopped", "failed"] as const) m.turns.inc({ outcome }, 0);
  for (const direction of ["input", "output", "cache_read", "cache_write"] as const) m.tokens.inc({ direction }, 0);
  for (const bucket of ["requests", "sends", "budget", "failed_auth"] as const) m.rateLimitRefusals.inc({ bucket }, 0);
  return m;
}

export type Metrics = ReturnType<typeof create>;

const holder = globalThis as { __threadkeeperMetrics?: Metrics };

export function metrics(): Metrics {
  return (holder.__threadkeeperMetrics ??= create());
}

/** Counts a finished turn and its duration (`startedAt`: performance.now() when it began). */
export function countTurn(outcome: TurnOutcome, startedAt: number): void {
  const m = metrics();
  m.turns.inc({ outcome });
  m.turnDuration.observe((performance.now() - startedAt) / 1000);
}

/** Times one call to Claude and counts it by its outcome. */
export async function timeClaudeCall<T>(kind: ClaudeCallKind, call: () => Promise<T>): Promise<T> {
  const m = metrics();
  const end = m.claudeDuration.startTimer({ kind });
  try {
    const result = await call();
    m.claudeRequests.inc({ kind, status: "ok" });
    return result;
  } catch (err) {
    m.claudeRequests.inc({ kind, status: claudeStatus(err) });
    throw err;
  } finally {
    end();
  }
}

/** The status label of a failed call: the API's HTTP status when it answered, else what went wrong. */
export function claudeStatus(err: unknown): string {
  if (typeof err !== "object" || err === null) return "error";
  const { status, name } = err as { status?: unknown; name?: unknown };
  if (typeof status === "number") return String(status);
  if (name === "APIConnectionTimeoutError" || name === "TimeoutError") return "timeout";
  if (name === "APIUserAbortError" || name === "AbortError") return "aborted";
  if (name === "APIConnectionError") return "connection";
  return "error";
}

/** The usage an API answer reports, added to the token counters. */
export function countBilledTokens(usage: {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}): void {
  const t = metrics().tokens;
  t.inc({ direction: "input" }, usage.input_tokens);
  t.inc({ direction: "output" }, usage.output_tokens);
  t.inc({ direction: "cache_read" }, usage.cache_read_input_tokens ?? 0);
  t.inc({ direction: "cache_write" }, usage.cache_creation_input_tokens ?? 0);
}

export function countCompaction(method: string, trigger: string): void {
  metrics().compactions.inc({ method, trigger });
}

export function countRefusal(bucket: RefusedBucket): void {
  metrics().rateLimitRefusals.inc({ bucket });
}
