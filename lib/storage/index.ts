// The bytes of attached files (issue 31): one interface, two backends, chosen from the
// environment. The files table (lib/db) says which files exist and whose they are; this only
// keeps bytes under (user, SHA-256). See docs/operations.md#file-storage.
import "server-only";
import { filesDir, storageEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { LocalFileStore } from "./local";
import { SupabaseFileStore, type SupabaseStoreConfig } from "./supabase";
import type { FileStore } from "./store";

export type { FileStore } from "./store";
export { LocalFileStore } from "./local";
export { SupabaseFileStore, type SupabaseStoreConfig } from "./supabase";

/** The private bucket migration 20261128000002_file_bucket.sql creates. */
export const DEFAULT_FILES_BUCKET = "threadkeeper-files";

type Holder = { store?: FileStore };
// On globalThis, like the database (lib/db/index.ts): the routes and instrumentation.ts may
// load this module in separate graphs, and each Supabase client keeps its own connections.
const holder = ((globalThis as { __threadkeeperFileStore?: Holder }).__threadkeeperFileStore ??= {});

/**
 * The configured store, chosen once per process: THREADKEEPER_FILE_STORE, else Supabase Storage
 * when SUPABASE_URL is set (SaaS mode runs many instances, which a folder on one of them cannot
 * serve) and a local folder otherwise. Throws a 500 naming the missing variable when Supabase is
 * chosen without its service key; a failed choice is not cached, so the next call reads the
 * environment again.
 */
export function fileStore(): FileStore {
  holder.store ??= configuredStore();
  return holder.store;
}

/** For tests: use this store instead of the configured one (undefined: choose again from the environment). */
export function setFileStore(store: FileStore | undefined): void {
  holder.store = store;
}

function configuredStore(): FileStore {
  const e = storageEnv();
  const supabaseUrl = e.SUPABASE_URL ?? e.NEXT_PUBLIC_SUPABASE_URL;
  const kind = e.THREADKEEPER_FILE_STORE ?? (supabaseUrl ? "supabase" : "local");
  if (kind === "local") return new LocalFileStore(filesDir());
  if (!supabaseUrl) {
    throw misconfigured("THREADKEEPER_FILE_STORE=supabase needs SUPABASE_URL (the project whose Storage keeps the files).");
  }
  if (!e.SUPABASE_SERVICE_ROLE_KEY) {
    throw misconfigured(
      "Files are kept in Supabase Storage (SUPABASE_URL is set) but SUPABASE_SERVICE_ROLE_KEY is not: set it to the project's secret (service_role) key, or set THREADKEEPER_FILE_STORE=local for a single instance.",
    );
  }
  const config: SupabaseStoreConfig = {
    url: supabaseUrl,
    serviceKey: e.SUPABASE_SERVICE_ROLE_KEY,
    bucket: e.THREADKEEPER_FILES_BUCKET ?? DEFAULT_FILES_BUCKET,
  };
  return new SupabaseFileStore(config);
}

const misconfigured = (message: string) => new AppError(500, "storage_misconfigured", message);
