/**
 * A fake Supabase Storage server: a real HTTP server that the real `@supabase/supabase-js` storage
 * client (storage-js) talks to, so tests exercise the SDK's own requests and error mapping and
 * lib/storage/supabase.ts's handling of them instead of mocks. Objects live in memory.
 *
 * In-process use (vitest):
 *   const fake = await startFakeSupabaseStorage({ buckets: ["threadkeeper-files"] });
 *   const supabase = createClient(fake.url, fake.serviceKey, { auth: { persistSession: false } });
 *   await supabase.storage.from("threadkeeper-files").upload("a/b", bytes);
 *   fake.objects(); fake.failNext({ status: 500 });
 *
 * Standalone use (Playwright webServer, demos):
 *   FAKE_STORAGE_PORT=4013 npx tsx tests/fake-supabase-storage/server.ts
 *   → prints "fake-supabase-storage listening on http://127.0.0.1:4013"; use that as SUPABASE_URL.
 *   Settings: FAKE_STORAGE_HOST, FAKE_STORAGE_SERVICE_KEY (default FAKE_STORAGE_SERVICE_KEY below),
 *   FAKE_STORAGE_BUCKETS (comma-separated, created at start). Control endpoints: GET /health,
 *   POST /__control/reset, GET /__control/objects (metadata, no bytes), GET /__control/requests,
 *   POST /__control/fail ({ status?, message?, times?, drop? }).
 *
 * Endpoints under /storage/v1, as storage-js 2.x calls them: POST|GET /bucket, GET /bucket/{id},
 * POST|PUT /object/{bucket}/{path} (raw body; `x-upsert`), GET /object/{bucket}/{path} and
 * /object/authenticated/{bucket}/{path}, DELETE /object/{bucket} ({ prefixes }), POST
 * /object/list/{bucket} ({ prefix, limit, offset }). Like the real service, refusals answer HTTP
 * 400 with the meaningful code in the body's `statusCode` ("404", "409", "403"), and only
 * internal faults answer 500. Every request needs `apikey` and `Authorization: Bearer` with the
 * service key: this fake plays a server-side client with the service role, nothing else.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { runIfEntry } from "../fake-anthropic/standalone";
import { flattenHeaders, listenOn, parseJson } from "../fake-http";

/** The service key accepted unless told otherwise. */
export const FAKE_STORAGE_SERVICE_KEY = "sb_secret_fake_storage_service_key_0001";

export interface FakeObject {
  bucket: string;
  /** The object's path inside its bucket, e.g. `${userId}/${sha256}`. */
  name: string;
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
  createdAt: string;
}

export interface RecordedStorageRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number;
}

export interface FaultOptions {
  /** HTTP status to answer (default 500); ignored with `drop`. */
  status?: number;
  message?: string;
  /** How many of the next storage requests fail (default 1). */
  times?: number;
  /** Close the connection without an answer (the client sees a network error). */
  drop?: boolean;
}

export interface FakeSupabaseStorage {
  /** The project URL (SUPABASE_URL, createClient's first argument). */
  url: string;
  readonly serviceKey: string;
  /** Snapshot of the stored objects, optionally of one bucket, sorted by bucket and name. */
  objects(bucket?: string): FakeObject[];
  /** The bucket ids that exist. */
  buckets(): string[];
  /** Every /storage/v1 request received, oldest first (live array). */
  readonly requests: RecordedStorageRequest[];
  /** The next storage request(s) fail as told (fault injection). */
  failNext(opts?: FaultOptions): void;
  /** Forgets objects, recorded requests and pending faults; buckets go back to the start's. */
  reset(): void;
  close(): Promise<void>;
}

export interface StartFakeSupabaseStorageOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default FAKE_STORAGE_SERVICE_KEY. */
  serviceKey?: string;
  /** Buckets that exist from the start (as a migration would have created them). */
  buckets?: string[];
  /** Largest object accepted (Supabase's default global limit: 50 MB). */
  maxObjectBytes?: number;
}

const PREFIX = "/storage/v1";

interface Bucket {
  id: string;
  public: boolean;
  createdAt: string;
}

/** Storage's error body; HTTP 400 unless the code is a 5xx, as the real service answers. */
class StorageRefusal extends Error {
  constructor(
    readonly statusCode: string,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const objectNotFound = () => new StorageRefusal("404", "not_found", "Object not found");
const bucketNotFound = () => new StorageRefusal("404", "Bucket not found", "Bucket not found");

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

class FakeSupabaseStorageServer implements FakeSupabaseStorage {
  url = "";
  readonly serviceKey: string;
  readonly requests: RecordedStorageRequest[] = [];
  private readonly server: http.Server;
  private readonly store = new Map<string, FakeObject>();
  private readonly bucketMap = new Map<string, Bucket>();
  private faults: FaultOptions[] = [];

  constructor(private readonly opts: StartFakeSupabaseStorageOptions) {
    this.serviceKey = opts.serviceKey ?? FAKE_STORAGE_SERVICE_KEY;
    this.reset();
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (!res.headersSent) this.send(res, 500, { statusCode: "500", error: "internal", message: `fake-supabase-storage crashed: ${message}` });
        else res.destroy();
      });
    });
  }

  async listen(port: number, host: string): Promise<void> {
    this.url = await listenOn(this.server, port, host);
  }

  objects(bucket?: string): FakeObject[] {
    return [...this.store.values()]
      .filter((o) => bucket === undefined || o.bucket === bucket)
      .sort((a, b) => `${a.bucket}/${a.name}`.localeCompare(`${b.bucket}/${b.name}`))
      .map((o) => ({ ...o, bytes: new Uint8Array(o.bytes) }));
  }

  buckets(): string[] {
    return [...this.bucketMap.keys()].sort();
  }

  failNext(opts: FaultOptions = {}): void {
    for (let i = 0; i < (opts.times ?? 1); i++) this.faults.push(opts);
  }

  reset(): void {
    this.store.clear();
    this.bucketMap.clear();
    for (const id of this.opts.buckets ?? []) this.bucketMap.set(id, { id, public: false, createdAt: new Date().toISOString() });
    this.requests.length = 0;
    this.faults = [];
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // supabase-js's fetch keeps connections alive; they would otherwise hold close() open.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const method = req.method ?? "GET";
    const body = await readRaw(req);
    if (url.pathname === "/health") return this.send(res, 200, { ok: true });
    if (url.pathname.startsWith("/__control/")) return this.control(res, `${method} ${url.pathname.slice("/__control".length)}`, body);
    if (!url.pathname.startsWith(`${PREFIX}/`)) return this.send(res, 404, { message: "no Route matched with those values" });

    const record: RecordedStorageRequest = { method, path: url.pathname, headers: flattenHeaders(req), status: 0 };
    this.requests.push(record);
    res.once("finish", () => {
      record.status = res.statusCode;
    });

    // The gateway's check first (401), then Storage's own check of the bearer token.
    const apikey = header(req, "apikey") ?? "";
    if (apikey === "") return this.send(res, 401, { message: "No API key found in request", hint: "No `apikey` request header or url param was found." });
    if (apikey !== this.serviceKey) return this.send(res, 401, { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." });
    const auth = header(req, "authorization") ?? "";
    if (!auth.startsWith("Bearer ")) return this.refuse(res, new StorageRefusal("403", "Unauthorized", "headers must have required property 'authorization'"));
    if (auth.slice("Bearer ".length) !== this.serviceKey) return this.refuse(res, new StorageRefusal("403", "Unauthorized", "invalid signature"));

    const fault = this.faults.shift();
    if (fault) {
      if (fault.drop) {
        res.destroy();
        return;
      }
      const status = fault.status ?? 500;
      return this.send(res, status, { statusCode: String(status), error: "internal", message: fault.message ?? "fake-supabase-storage: injected fault" });
    }

    try {
      await this.route(req, res, method, decodeURIComponent(url.pathname.slice(PREFIX.length)), body);
    } catch (err) {
      if (err instanceof StorageRefusal) return this.refuse(res, err);
      throw err;
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, method: string, path: string, body: Buffer): Promise<void> {
    let m: RegExpExecArray | null;
    if (path === "/bucket" && method === "GET") return this.send(res, 200, [...this.bucketMap.values()].map((b) => this.bucketJson(b)));
    if (path === "/bucket" && method === "POST") return this.createBucket(res, body);
    if ((m = /^\/bucket\/([^/]+)$/.exec(path)) && method === "GET") {
      const bucket = this.bucketMap.get(m[1]!);
      if (!bucket) throw bucketNotFound();
      return this.send(res, 200, this.bucketJson(bucket));
    }
    if ((m = /^\/object\/list\/([^/]+)$/.exec(path)) && method === "POST") return this.list(res, m[1]!, body);
    if ((m = /^\/object\/(?:authenticated\/)?([^/]+)\/(.+)$/.exec(path)) && method === "GET") return this.download(res, m[1]!, m[2]!);
    if ((m = /^\/object\/([^/]+)\/(.+)$/.exec(path)) && (method === "POST" || method === "PUT")) return this.upload(req, res, method, m[1]!, m[2]!, body);
    if ((m = /^\/object\/([^/]+)$/.exec(path)) && method === "DELETE") return this.remove(res, m[1]!, body);
    return this.send(res, 404, { message: "no Route matched with those values" });
  }

  private bucketJson(b: Bucket) {
    return { id: b.id, name: b.id, owner: "", public: b.public, file_size_limit: null, allowed_mime_types: null, created_at: b.createdAt, updated_at: b.createdAt };
  }

  private createBucket(res: ServerResponse, body: Buffer): void {
    const json = parseJson(body.toString("utf8")) as { id?: unknown; name?: unknown; public?: unknown } | null;
    const id = typeof json?.id === "string" ? json.id : typeof json?.name === "string" ? json.name : "";
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(id)) throw new StorageRefusal("400", "Invalid Input", "Bucket name invalid");
    if (this.bucketMap.has(id)) throw new StorageRefusal("409", "Duplicate", "The resource already exists");
    this.bucketMap.set(id, { id, public: json?.public === true, createdAt: new Date().toISOString() });
    this.send(res, 200, { name: id });
  }

  private bucket(id: string): Bucket {
    const bucket = this.bucketMap.get(id);
    if (!bucket) throw bucketNotFound();
    return bucket;
  }

  private upload(req: IncomingMessage, res: ServerResponse, method: string, bucketId: string, name: string, body: Buffer): void {
    this.bucket(bucketId);
    const contentType = header(req, "content-type") ?? "application/octet-stream";
    // storage-js sends a Blob or FormData as multipart; lib/storage sends raw bytes, all this fake reads.
    if (contentType.startsWith("multipart/form-data")) throw new StorageRefusal("400", "Invalid Input", "fake-supabase-storage reads raw bodies only, not multipart");
    if (body.byteLength > (this.opts.maxObjectBytes ?? 50 * 1024 * 1024)) throw new StorageRefusal("413", "Payload too large", "The object exceeded the maximum allowed size");
    const key = `${bucketId}/${name}`;
    const exists = this.store.has(key);
    // POST creates (or replaces with x-upsert: true); PUT replaces an existing object.
    if (method === "POST" && exists && header(req, "x-upsert") !== "true") throw new StorageRefusal("409", "Duplicate", "The resource already exists");
    if (method === "PUT" && !exists) throw objectNotFound();
    this.store.set(key, {
      bucket: bucketId,
      name,
      bytes: new Uint8Array(body),
      contentType,
      cacheControl: header(req, "cache-control") ?? "no-cache",
      createdAt: new Date().toISOString(),
    });
    this.send(res, 200, { Id: randomUUID(), Key: key });
  }

  private download(res: ServerResponse, bucketId: string, name: string): void {
    this.bucket(bucketId);
    const object = this.store.get(`${bucketId}/${name}`);
    if (!object) throw objectNotFound();
    res.writeHead(200, { "content-type": object.contentType, "cache-control": object.cacheControl, "content-length": String(object.bytes.byteLength) });
    res.end(Buffer.from(object.bytes));
  }

  private remove(res: ServerResponse, bucketId: string, body: Buffer): void {
    this.bucket(bucketId);
    const json = parseJson(body.toString("utf8")) as { prefixes?: unknown } | null;
    const prefixes = Array.isArray(json?.prefixes) ? json.prefixes : null;
    if (!prefixes || !prefixes.every((p) => typeof p === "string")) throw new StorageRefusal("400", "Invalid Input", "body must have required property 'prefixes'");
    const removed = [];
    for (const name of prefixes as string[]) {
      const object = this.store.get(`${bucketId}/${name}`);
      if (!object) continue; // Storage skips names that are not there.
      this.store.delete(`${bucketId}/${name}`);
      removed.push(this.fileObject(object, name));
    }
    this.send(res, 200, removed);
  }

  /** The objects and folders directly under `prefix`, as storage-js's list() reads them. */
  private list(res: ServerResponse, bucketId: string, body: Buffer): void {
    this.bucket(bucketId);
    const json = parseJson(body.toString("utf8")) as { prefix?: unknown; limit?: unknown; offset?: unknown } | null;
    const prefix = typeof json?.prefix === "string" && json.prefix !== "" ? `${json.prefix.replace(/\/+$/, "")}/` : "";
    const entries = new Map<string, ReturnType<FakeSupabaseStorageServer["fileObject"]> | { name: string; id: null; metadata: null }>();
    for (const object of this.objects(bucketId)) {
      if (!object.name.startsWith(prefix)) continue;
      const rest = object.name.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) entries.set(rest, this.fileObject(object, rest));
      else entries.set(rest.slice(0, slash), { name: rest.slice(0, slash), id: null, metadata: null });
    }
    const offset = typeof json?.offset === "number" ? json.offset : 0;
    const limit = typeof json?.limit === "number" ? json.limit : 100;
    this.send(res, 200, [...entries.values()].slice(offset, offset + limit));
  }

  private fileObject(o: FakeObject, name: string) {
    return {
      name,
      bucket_id: o.bucket,
      id: randomUUID(),
      updated_at: o.createdAt,
      created_at: o.createdAt,
      last_accessed_at: o.createdAt,
      metadata: { size: o.bytes.byteLength, mimetype: o.contentType, cacheControl: o.cacheControl },
    };
  }

  private control(res: ServerResponse, route: string, body: Buffer): void {
    switch (route) {
      case "POST /reset":
        this.reset();
        return this.send(res, 200, { ok: true });
      case "GET /objects":
        return this.send(res, 200, this.objects().map(({ bytes, ...meta }) => ({ ...meta, size: bytes.byteLength })));
      case "GET /requests":
        return this.send(res, 200, this.requests);
      case "POST /fail": {
        const json = parseJson(body.toString("utf8")) as FaultOptions | null;
        this.failNext(json ?? {});
        return this.send(res, 200, { ok: true });
      }
      default:
        return this.send(res, 404, { error: `Not found: ${route}` });
    }
  }

  private refuse(res: ServerResponse, err: StorageRefusal): void {
    this.send(res, err.statusCode.startsWith("5") ? Number(err.statusCode) : 400, { statusCode: err.statusCode, error: err.error, message: err.message });
  }

  private send(res: ServerResponse, status: number, payload: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  }
}

export async function startFakeSupabaseStorage(opts: StartFakeSupabaseStorageOptions = {}): Promise<FakeSupabaseStorage> {
  const fake = new FakeSupabaseStorageServer(opts);
  await fake.listen(opts.port ?? 0, opts.host ?? "127.0.0.1");
  return fake;
}

// ---------------------------------------------------------------------------------------------
// Standalone mode: `npx tsx tests/fake-supabase-storage/server.ts`
// ---------------------------------------------------------------------------------------------

runIfEntry(import.meta.url, async () => {
  const env = process.env;
  const port = Number(env.FAKE_STORAGE_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0) throw new Error(`invalid FAKE_STORAGE_PORT: ${env.FAKE_STORAGE_PORT}`);
  const fake = await startFakeSupabaseStorage({
    port,
    host: env.FAKE_STORAGE_HOST || "127.0.0.1",
    serviceKey: env.FAKE_STORAGE_SERVICE_KEY || undefined,
    buckets: env.FAKE_STORAGE_BUCKETS ? env.FAKE_STORAGE_BUCKETS.split(",").map((b) => b.trim()).filter(Boolean) : undefined,
  });
  console.log(`fake-supabase-storage listening on ${fake.url}`);
  return fake;
});
