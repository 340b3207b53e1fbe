// One place for the e2e servers' ports. TK_E2E_PORT_OFFSET moves them all, so two checkouts
// can run their browser tests side by side on one machine.
const offset = Number(process.env.TK_E2E_PORT_OFFSET ?? 0);

export const FAKE_PORT = 4011 + offset;
export const APP_PORT = 3100 + offset;
// SaaS mode: a second app instance signing users in against the fake Supabase Auth server.
export const FAKE_AUTH_PORT = 4012 + offset;
export const SAAS_PORT = 3102 + offset;
// The storage banner's own instance, started with a warning level no disk is above.
export const STORAGE_PORT = 3103 + offset;
// An instance started without ANTHROPIC_API_KEY: the key typed into Account settings.
export const KEYLESS_PORT = 3104 + offset;
