// Graceful shutdown. On SIGTERM (instrumentation.ts) the process stops taking API requests
// (route() answers 503 `shutting_down` with Retry-After), stops its background loops at a safe
// point, gives the turns in flight THREADKEEPER_SHUTDOWN_GRACE_MS to finish, then stops the
// rest the way a user's stop does (the partial reply is saved as interrupted), and exits.
//
// The state is on globalThis: Next.js evaluates a module once per bundle layer, and the signal
// handler (instrumentation.ts) and route() live in different layers.
import { log } from "@/lib/log";

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** After the grace period: how long aborted turns get to save what they have. */
export const ABORT_SETTLE_MS = 5_000;
/** What a refused request is told to wait, in seconds: about as long as a restart takes. */
export const SHUTDOWN_RETRY_AFTER_S = 5;

interface State {
  since: number | null;
  /** API requests being handled (not counting a stream still being written after route() returned). */
  requests: number;
  /** Turns from their saved user message until their lease is released. */
  turns: number;
  /** Woken whenever a request or turn ends. */
  waiters: Set<() => void>;
}

const state = ((globalThis as { __threadkeeperShutdown?: State }).__threadkeeperShutdown ??= {
  since: null,
  requests: 0,
  turns: 0,
  waiters: new Set(),
});

export function isShuttingDown(): boolean {
  return state.since !== null;
}

/** Counts a unit of work until the returned function is called (once; later calls do nothing). */
function track(kind: "requests" | "turns"): () => void {
  state[kind]++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    state[kind]--;
    for (const wake of state.waiters) wake();
  };
}

/** A request route() is handling. */
export const trackRequest = (): (() => void) => track("requests");
/** A turn, from its saved message until its lease is released. */
export const trackTurn = (): (() => void) => track("turns");

export function inFlight(): { requests: number; turns: number } {
  return { requests: state.requests, turns: state.turns };
}

/** Resolves true once nothing is in flight, false if `ms` passes first. */
export function waitUntilIdle(ms: number): Promise<boolean> {
  const idle = () => state.requests === 0 && state.turns === 0;
  if (idle()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer);
      state.waiters.delete(check);
      resolve(value);
    };
    const check = () => {
      if (idle()) finish(true);
    };
    const timer = setTimeout(() => finish(false), ms);
    state.waiters.add(check);
  });
}

export interface ShutdownSteps {
  graceMs: number;
  /** Stops the turns still running (as a user's stop would); answers how many there were. */
  abortTurns: () => number;
  /** Stops the background loops, each resolving once its current pass is over. */
  stopLoops: () => Promise<void>;
  /** Last: flush traces, close the database. */
  close: () => Promise<void>;
  exit: (code: number) => void;
  /** How long aborted turns get to save their partial replies (default ABORT_SETTLE_MS). */
  settleMs?: number;
}

/**
 * The whole sequence; a second call (a second signal) while it runs does nothing. New requests
 * are refused from the first moment; the loops stop while the turns finish.
 */
export async function shutDown(steps: ShutdownSteps): Promise<void> {
  if (state.since !== null) return;
  state.since = Date.now();
  const busy = inFlight();
  log.info(`[threadkeeper] shutting down: ${busy.turns} turn(s) and ${busy.requests} request(s) in flight, waiting up to ${steps.graceMs} ms`);
  const loops = steps.stopLoops().catch((err: unknown) => log.error("[threadkeeper] stopping the background loops failed", err));
  if (!(await waitUntilIdle(steps.graceMs))) {
    const aborted = steps.abortTurns();
    log.warn(`[threadkeeper] grace period over: stopping ${aborted} turn(s); their partial replies are saved as interrupted`);
    if (!(await waitUntilIdle(steps.settleMs ?? ABORT_SETTLE_MS))) {
      const left = inFlight();
      log.error(`[threadkeeper] exiting with ${left.turns} turn(s) and ${left.requests} request(s) unfinished; the start-up sweep marks cut-off replies interrupted`);
    }
  }
  await loops;
  await steps.close().catch((err: unknown) => log.error("[threadkeeper] closing down failed", err));
  log.info(`[threadkeeper] shut down in ${Date.now() - state.since} ms`);
  steps.exit(0);
}

/** For tests: back to a running process. */
export function resetShutdown(): void {
  state.since = null;
}
