import path from "node:path";
import { z } from "zod";

const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  THREADKEEPER_DATA_DIR: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  THREADKEEPER_MODEL: z.string().optional(),
  THREADKEEPER_MAX_MESSAGE_BYTES: z.coerce.number().int().positive().optional(),
  THREADKEEPER_SYSTEM_PROMPT: z.string().optional(),
  THREADKEEPER_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  THREADKEEPER_MAX_RETRIES: z.coerce.number().int().min(0).max(10).optional(),
  THREADKEEPER_OFFLINE_DELAY_MS: z.coerce.number().int().min(0).optional(),
  THREADKEEPER_CHECKPOINT_KEEP: z.coerce.number().int().min(1).max(1000).optional(),
  THREADKEEPER_SUMMARY_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  THREADKEEPER_SUMMARY_CHUNK_TOKENS: z.coerce.number().int().min(1000).optional(),
  // SaaS mode: Supabase Auth. The NEXT_PUBLIC_ names are accepted as fallbacks (and as the
  // browser's view of the project when it differs); the browser gets them at request time.
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  NEXT_PUBLIC_SUPABASE_URL: z.string().url().optional(),
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  // Extra Host names served besides loopback (comma-separated), against DNS rebinding.
  THREADKEEPER_ALLOWED_HOSTS: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

const KEYS = Object.keys(schema.shape) as (keyof Env)[];
let cached: { key: string; value: Env } | undefined;

/**
 * Read on every call so tests can change the environment between cases, but parsed only
 * when it changed: this runs several times per request, and parsing costs tens of µs.
 */
export function env(): Env {
  const raw = KEYS.map((k) => process.env[k] ?? "");
  const key = raw.join("\u0000");
  if (cached?.key !== key) {
    // A blank variable counts as unset.
    cached = { key, value: schema.parse(Object.fromEntries(KEYS.map((k, i) => [k, raw[i] === "" ? undefined : raw[i]]))) };
  }
  return cached.value;
}

const AUTH_KEYS = [
  "SUPABASE_URL",
  "SUPABASE_PUBLISHABLE_KEY",
  "NEXT_PUBLIC_SUPABASE_URL",
  "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY",
  "THREADKEEPER_ALLOWED_HOSTS",
] as const satisfies readonly (keyof Env)[];
export type AuthEnv = Pick<Env, (typeof AUTH_KEYS)[number]>;
const authSchema = schema.pick(Object.fromEntries(AUTH_KEYS.map((k) => [k, true])) as { [K in (typeof AUTH_KEYS)[number]]: true });
let cachedAuth: { key: string; value: AuthEnv } | undefined;

/** The settings every request's edge checks read: a handful of variables instead of all of env(). */
export function authEnv(): AuthEnv {
  const raw = AUTH_KEYS.map((k) => process.env[k] ?? "");
  const key = raw.join("\u0000");
  if (cachedAuth?.key !== key) {
    cachedAuth = { key, value: authSchema.parse(Object.fromEntries(AUTH_KEYS.map((k, i) => [k, raw[i] === "" ? undefined : raw[i]]))) };
  }
  return cachedAuth.value;
}

export function dataDir(): string {
  return env().THREADKEEPER_DATA_DIR ?? path.join(process.cwd(), "data", "pglite");
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are Claude, working with the user inside Threadkeeper, a workspace for long conversations. " +
  "Be precise and keep track of decisions, file paths and open tasks.";
