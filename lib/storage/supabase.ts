// The Supabase Storage file store: one object per (user, digest) at `${userId}/${sha256}` in a
// private bucket, reached with the service key (which bypasses the bucket's RLS: this server has
// already checked who is asking). Shared by every instance, so SaaS mode's many servers see the
// same files. The bucket and its policies come from migration 20261128000002_file_bucket.sql.
import "server-only";
import { storageUnavailable } from "@/lib/errors";
import { checkKey, checkObject, type FileStore } from "./store";

export interface SupabaseStoreConfig {
  /** The project URL (SUPABASE_URL). */
  url: string;
  /** SUPABASE_SERVICE_ROLE_KEY: a secret key (`sb_secret_…`) or the legacy service_role JWT. */
  serviceKey: string;
  bucket: string;
  /** How long one request may take before it counts as a failure (default 60 s). */
  timeoutMs?: number;
}

/** The largest file (32 MB) uploads in seconds on any working link; a hung Storage must not hold a request forever. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Objects never change under their digest: any cache may keep them for a year. */
const IMMUTABLE_CACHE_SECONDS = "31536000";

type Bucket = ReturnType<Awaited<ReturnType<typeof createStorage>>["from"]>;
/** storage-js's error (named through supabase-js, which does not re-export the class itself). */
type StorageError = NonNullable<Awaited<ReturnType<Bucket["upload"]>>["error"]>;

type ClientOptions = NonNullable<Parameters<typeof import("@supabase/supabase-js").createClient>[2]>;
type RealtimeTransport = NonNullable<NonNullable<ClientOptions["realtime"]>["transport"]>;

/**
 * supabase-js builds a realtime client inside createClient, and on Node 20 (the image's Node) that
 * throws for want of a global WebSocket. The store never subscribes to anything, so a transport
 * that refuses to be constructed is all it needs.
 */
class NoRealtime {
  constructor() {
    throw new Error("the file store does not use Supabase Realtime");
  }
}

async function createStorage(config: SupabaseStoreConfig) {
  // Loaded on first use: local mode never pays for the client.
  const { createClient } = await import("@supabase/supabase-js");
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = createClient(config.url, config.serviceKey, {
    // A server-side client acting as the service: no user session to keep, refresh or find in a URL.
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as unknown as RealtimeTransport },
    global: {
      fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
    },
  });
  return client.storage;
}

/** Storage's own word for a request, read off the error storage-js hands back. */
function statusOf(error: StorageError): string {
  // Storage answers most refusals with HTTP 400 and the meaningful code in the body's
  // `statusCode` ("404", "409"); newer versions use the HTTP status itself. Either counts.
  return error.statusCode ?? (error.status === undefined ? "" : String(error.status));
}

function isDuplicate(error: StorageError): boolean {
  return statusOf(error) === "409" || error.status === 409 || /already exists|duplicate/i.test(error.message);
}

/** A missing object, as opposed to a missing bucket (a misconfiguration, not an absent file). */
function isMissingObject(error: StorageError): boolean {
  const notFound = statusOf(error) === "404" || error.status === 404;
  return notFound && !/bucket/i.test(error.message);
}

export class SupabaseFileStore implements FileStore {
  readonly kind = "supabase" as const;
  private bucketPromise: Promise<Bucket> | undefined;

  constructor(private readonly config: SupabaseStoreConfig) {}

  async put(userId: string, sha256: string, bytes: Uint8Array, mediaType: string): Promise<void> {
    checkObject(userId, sha256, bytes);
    const bucket = await this.bucket();
    const { error } = await bucket.upload(`${userId}/${sha256}`, bytes, {
      contentType: mediaType,
      cacheControl: IMMUTABLE_CACHE_SECONDS,
      // Never overwrite: the object under a digest is those bytes, so "already there" is success.
      upsert: false,
    });
    if (error && !isDuplicate(error)) throw this.failure("store", error);
  }

  async get(userId: string, sha256: string): Promise<Uint8Array | null> {
    checkKey(userId, sha256);
    const bucket = await this.bucket();
    const { data, error } = await bucket.download(`${userId}/${sha256}`);
    if (error) {
      if (isMissingObject(error)) return null;
      throw this.failure("read", error);
    }
    return new Uint8Array(await data.arrayBuffer());
  }

  async remove(userId: string, sha256s: readonly string[]): Promise<void> {
    for (const sha of sha256s) checkKey(userId, sha);
    if (sha256s.length === 0) return;
    const bucket = await this.bucket();
    // One request for all of them; Storage skips names that are not there.
    const { error } = await bucket.remove([...new Set(sha256s)].map((sha) => `${userId}/${sha}`));
    if (error) throw this.failure("remove", error);
  }

  private bucket(): Promise<Bucket> {
    this.bucketPromise ??= createStorage(this.config).then((storage) => storage.from(this.config.bucket));
    return this.bucketPromise;
  }

  /** The 502 a failed request becomes: what was attempted, and Storage's own reason. */
  private failure(action: "store" | "read" | "remove", error: StorageError) {
    const status = statusOf(error);
    const unreachable = error.name === "StorageUnknownError";
    const reason = unreachable ? `Supabase Storage could not be reached (${error.message})` : `Supabase Storage answered ${status || "an error"}: ${error.message}`;
    const hint = /bucket not found/i.test(error.message)
      ? ` The bucket "${this.config.bucket}" does not exist: apply the migrations (supabase db push) or set THREADKEEPER_FILES_BUCKET.`
      : "";
    return Object.assign(
      storageUnavailable(`Could not ${action} the file. ${reason}.${hint}`, { store: "supabase", status: status || null }),
      { cause: error },
    );
  }
}
