import os from "node:os";
import path from "node:path";
import { z } from "zod";

const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  THREADKEEPER_DATA_DIR: z.string().optional(),
  // Prepared statements on DATABASE_URL unless "off" (behind a transaction-mode pooler).
  THREADKEEPER_DB_PREPARE: z.enum(["on", "off"]).optional(),
  // Embedded database (docs/operations.md#storage-full): writes are refused (507) once the data
  // folder's free space is under the floor (default 64 MB: a 16 MB WAL segment and a margin);
  // the UI warns under the warning level (default 1024 MB). 0 turns either off.
  THREADKEEPER_STORAGE_FLOOR_MB: z.coerce.number().int().min(0).optional(),
  THREADKEEPER_STORAGE_WARN_MB: z.coerce.number().int().min(0).optional(),
  // A database call that blocks the server longer than this ends the process (default 60000; 0: off).
  THREADKEEPER_DB_WATCHDOG_MS: z.coerce.number().int().min(0).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  // Local mode: where a key saved from Account settings is kept (default `<data dir>-anthropic-key`, 0600).
  THREADKEEPER_KEY_FILE: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  THREADKEEPER_MODEL: z.string().optional(),
  THREADKEEPER_MAX_MESSAGE_BYTES: z.coerce.number().int().positive().optional(),
  THREADKEEPER_IMPORT_MAX_BYTES: z.coerce.number().int().positive().optional(),
  // Bytes of files one user may store (default 1024 MB; the same bytes count once).
  THREADKEEPER_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).optional(),
  // Breakpoints after attached files unless "off" (the files benchmark's baseline).
  THREADKEEPER_FILE_BREAKPOINTS: z.enum(["on", "off"]).optional(),
  THREADKEEPER_SYSTEM_PROMPT: z.string().optional(),
  // The OpenAI-compatible endpoint fetches nothing unless "on": an image_url that is an http(s)
  // URL is refused (400) and only base64 data: URLs are taken; "on" passes URLs to Claude as URL sources.
  THREADKEEPER_OPENAI_IMAGE_URLS: z.enum(["on", "off"]).optional(),
  THREADKEEPER_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  THREADKEEPER_MAX_RETRIES: z.coerce.number().int().min(0).max(10).optional(),
  THREADKEEPER_OFFLINE_DELAY_MS: z.coerce.number().int().min(0).optional(),
  THREADKEEPER_CHECKPOINT_KEEP: z.coerce.number().int().min(1).max(1000).optional(),
  THREADKEEPER_SUMMARY_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  THREADKEEPER_SUMMARY_CHUNK_TOKENS: z.coerce.number().int().min(1000).optional(),
  // Prompt-cache breakpoints on every request unless "off" (the cost benchmark's baseline).
  THREADKEEPER_PROMPT_CACHING: z.enum(["on", "off"]).optional(),
  // First webhook retry delay (doubling per attempt, up to an hour).
  THREADKEEPER_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).optional(),
  // SaaS mode: Supabase Auth. The NEXT_PUBLIC_ names are accepted as fallbacks (and as the
  // browser's view of the project when it differs); the browser gets them at request time.
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  NEXT_PUBLIC_SUPABASE_URL: z.string().url().optional(),
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  // Server-side Supabase access (the file store's bucket): bypasses RLS, so never sent to a
  // browser and redacted wherever text is derived (lib/redact.ts).
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  // Where attached files' bytes live (lib/storage): "local" (a folder) or "supabase" (Storage);
  // unset: supabase when SUPABASE_URL is set, since SaaS instances must share one store.
  THREADKEEPER_FILE_STORE: z.enum(["local", "supabase"]).optional(),
  // The local store's folder (default: beside the embedded database's folder, `<data dir>-files`).
  THREADKEEPER_FILES_DIR: z.string().optional(),
  // The Supabase Storage bucket (private; created by migration 20261128000002_file_bucket.sql).
  THREADKEEPER_FILES_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{1,62}$/, "a bucket name: lowercase letters, digits, '.', '_' and '-'")
    .optional(),
  // Extra Host names served besides loopback (comma-separated), against DNS rebinding.
  THREADKEEPER_ALLOWED_HOSTS: z.string().optional(),
  // How many reverse proxies in front append to X-Forwarded-For (the client's address is theirs to report).
  THREADKEEPER_TRUST_PROXY: z.coerce.number().int().min(0).max(10).optional(),
  // Per API key, and per user for everyone else; 0 turns a limit off.
  THREADKEEPER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  THREADKEEPER_SEND_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  // Billed input + output tokens per user and UTC day; unset or 0: no budget.
  THREADKEEPER_DAILY_TOKEN_BUDGET: z.coerce.number().int().min(0).optional(),
  // Operating it (docs/operations.md). Server logs as one JSON object per line instead of text.
  THREADKEEPER_LOG_FORMAT: z.enum(["text", "json"]).optional(),
  // After SIGTERM, how long turns in flight get to finish before they are stopped (default 10 s).
  THREADKEEPER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).optional(),
  // The metrics scraper's bearer token (docs/operations.md#metrics); SaaS mode serves metrics to nothing else.
  THREADKEEPER_METRICS_TOKEN: z.string().min(1).optional(),
  // Traces go to this OTLP/HTTP collector (the standard OpenTelemetry variables); unset: no tracing.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

/**
 * A reader of some variables: read on every call so tests can change the environment between
 * cases, but parsed only when they changed (this runs several times per request, and parsing
 * costs tens of µs). A blank variable counts as unset.
 */
function reader<S extends z.ZodObject>(part: S): () => z.infer<S> {
  const keys = Object.keys(part.shape);
  let cached: { key: string; value: z.infer<S> } | undefined;
  return () => {
    const raw = keys.map((k) => process.env[k] ?? "");
    const key = raw.join("\u0000");
    if (cached?.key !== key) cached = { key, value: part.parse(Object.fromEntries(keys.map((k, i) => [k, raw[i] || undefined]))) };
    return cached.value;
  };
}

export const env: () => Env = reader(schema);

const authSchema = schema.pick({
  SUPABASE_URL: true,
  SUPABASE_PUBLISHABLE_KEY: true,
  NEXT_PUBLIC_SUPABASE_URL: true,
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: true,
  THREADKEEPER_ALLOWED_HOSTS: true,
  THREADKEEPER_TRUST_PROXY: true,
});
export type AuthEnv = z.infer<typeof authSchema>;

/** The settings every request's edge checks read: a handful of variables instead of all of env(). */
export const authEnv: () => AuthEnv = reader(authSchema);

const limitsSchema = schema.pick({
  THREADKEEPER_RATE_LIMIT_PER_MINUTE: true,
  THREADKEEPER_SEND_LIMIT_PER_MINUTE: true,
  THREADKEEPER_DAILY_TOKEN_BUDGET: true,
});

/** Rate limits and the daily budget, read on every request apart from the rest of env(). */
export const limitsEnv: () => z.infer<typeof limitsSchema> = reader(limitsSchema);

const storageSchema = schema.pick({
  THREADKEEPER_FILE_STORE: true,
  THREADKEEPER_FILES_DIR: true,
  THREADKEEPER_FILES_BUCKET: true,
  THREADKEEPER_DATA_DIR: true,
  SUPABASE_URL: true,
  NEXT_PUBLIC_SUPABASE_URL: true,
  SUPABASE_SERVICE_ROLE_KEY: true,
});
export type StorageEnv = z.infer<typeof storageSchema>;

/** The file store's settings, read apart from the rest of env() like the others above. */
export const storageEnv: () => StorageEnv = reader(storageSchema);

export function dataDir(): string {
  return env().THREADKEEPER_DATA_DIR ?? path.join(process.cwd(), "data", "pglite");
}

/**
 * The local file store's folder (lib/storage/local.ts): THREADKEEPER_FILES_DIR, else beside the
 * embedded database's folder, `<data dir>-files`. Never inside it: PGlite's initdb wants that
 * folder empty, and a backup of the two side by side stays one copy of one parent folder. An
 * in-memory database (`memory://`, tests) gets a folder of this process's under the temporary
 * folder, as short-lived as the database.
 */
export function filesDir(): string {
  const e = storageEnv();
  if (e.THREADKEEPER_FILES_DIR) return path.resolve(e.THREADKEEPER_FILES_DIR);
  const data = dataDir();
  if (data.startsWith("memory://")) return path.join(os.tmpdir(), `threadkeeper-files-${process.pid}`);
  return `${path.resolve(data)}-files`;
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are Claude, working with the user inside Threadkeeper, a workspace for long conversations. " +
  "Be precise and keep track of decisions, file paths and open tasks.";
