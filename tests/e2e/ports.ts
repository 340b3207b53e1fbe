// One place for the e2e servers' ports. TK_E2E_PORT_OFFSET moves them all, so two checkouts
// can run their browser tests side by side on one machine.
//
// The suite runs on parallel workers, each with its own set of servers (fake Anthropic, app,
// fake Auth, SaaS app; see playwright.config.ts), because the fake Anthropic server's reply
// queue and the app's data folder are shared by everything that talks to them. Playwright sets
// TEST_PARALLEL_INDEX (0 … workers-1) in each worker before it loads the config and the specs,
// so every port below is already the worker's own; the runner process (no index) sees set 0
// and starts every set through `portsFor`.
const offset = Number(process.env.TK_E2E_PORT_OFFSET ?? 0);

/** Far enough apart that a worker's set never lands on another checkout's offset (multiples of 10 below 500). */
const WORKER_STRIDE = 500;

export function portsFor(worker: number) {
  const o = offset + worker * WORKER_STRIDE;
  return {
    FAKE_PORT: 4011 + o,
    APP_PORT: 3100 + o,
    // SaaS mode: a second app instance signing users in against the fake Supabase Auth server.
    FAKE_AUTH_PORT: 4012 + o,
    SAAS_PORT: 3102 + o,
    // The crash test's own instance, which it kills and restarts.
    CRASH_PORT: 3101 + o,
    // The storage banner's own instance, started with a warning level no disk is above.
    STORAGE_PORT: 3103 + o,
    // An instance started without ANTHROPIC_API_KEY: the key typed into Account settings.
    KEYLESS_PORT: 3104 + o,
  };
}

/** This worker's index (0 in the runner process). */
export const WORKER = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export const { FAKE_PORT, APP_PORT, FAKE_AUTH_PORT, SAAS_PORT, CRASH_PORT, STORAGE_PORT, KEYLESS_PORT } = portsFor(WORKER);
