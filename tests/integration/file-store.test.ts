// The file store (lib/storage): one conformance suite run against both backends, the local one
// in a temporary folder and the Supabase one through the real supabase-js against the fake
// Storage server; then what only one backend does, how the store is chosen from the
// environment, and the bucket migration on a database with and without Supabase's `storage`.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { DEFAULT_FILES_BUCKET, LocalFileStore, SupabaseFileStore, fileStore, setFileStore, type FileStore } from "@/lib/storage";
import { startFakeSupabaseStorage, type FakeSupabaseStorage } from "../fake-supabase-storage/server";

const USER_A = "00000000-0000-4000-8000-00000000f11a";
const USER_B = "00000000-0000-4000-8000-00000000f11b";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Every byte value, then pseudo-random bytes: nothing a text encoding would survive. */
function binary(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = i < 256 ? i : x >>> 24;
  }
  return out;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

interface Backend {
  name: string;
  setup(): Promise<FileStore>;
  teardown(): Promise<void>;
}

let tempRoot = "";
let fake: FakeSupabaseStorage;

beforeAll(async () => {
  tempRoot = await mkdtemp(path.join(os.tmpdir(), "tk-file-store-"));
  fake = await startFakeSupabaseStorage({ buckets: [DEFAULT_FILES_BUCKET] });
});
afterAll(async () => {
  await fake.close();
  await rm(tempRoot, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: "local",
    setup: async () => new LocalFileStore(await mkdtemp(path.join(tempRoot, "local-"))),
    teardown: async () => {},
  },
  {
    name: "supabase",
    setup: async () => {
      fake.reset();
      return new SupabaseFileStore({ url: fake.url, serviceKey: fake.serviceKey, bucket: DEFAULT_FILES_BUCKET });
    },
    teardown: async () => {},
  },
];

describe.each(backends)("the $name file store", (backend) => {
  let store: FileStore;
  beforeAll(async () => {
    store = await backend.setup();
  });
  afterAll(() => backend.teardown());

  it("gives back exactly the bytes it was given", async () => {
    const bytes = binary(300_000, 1);
    await store.put(USER_A, sha(bytes), bytes, "application/pdf");
    const back = await store.get(USER_A, sha(bytes));
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(back!).equals(Buffer.from(bytes))).toBe(true);
    const empty = new Uint8Array(0);
    await store.put(USER_A, sha(empty), empty, "text/plain");
    expect((await store.get(USER_A, sha(empty)))?.byteLength).toBe(0);
  });

  it("takes the same bytes again as a no-op", async () => {
    const bytes = binary(1000, 2);
    await store.put(USER_A, sha(bytes), bytes, "image/png");
    await store.put(USER_A, sha(bytes), bytes, "image/png");
    expect(Buffer.from((await store.get(USER_A, sha(bytes)))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it("takes the same bytes uploaded at once by two requests", async () => {
    const bytes = binary(200_000, 15);
    await Promise.all([1, 2, 3].map(() => store.put(USER_B, sha(bytes), bytes, "application/pdf")));
    expect(Buffer.from((await store.get(USER_B, sha(bytes)))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it("answers null for what it does not hold", async () => {
    expect(await store.get(USER_A, "0".repeat(64))).toBeNull();
    expect(await store.get("00000000-0000-4000-8000-0000000000ff", "0".repeat(64))).toBeNull();
  });

  it("removes objects, and takes missing ones and an empty list without complaint", async () => {
    const one = binary(500, 3);
    const two = binary(600, 4);
    await store.put(USER_A, sha(one), one, "text/plain");
    await store.put(USER_A, sha(two), two, "text/plain");
    await store.remove(USER_A, [sha(one), "f".repeat(64), sha(one)]);
    expect(await store.get(USER_A, sha(one))).toBeNull();
    expect(await store.get(USER_A, sha(two))).not.toBeNull();
    await store.remove(USER_A, [sha(one)]);
    await store.remove(USER_A, []);
    await store.remove(USER_A, [sha(two)]);
    expect(await store.get(USER_A, sha(two))).toBeNull();
  });

  it("keeps two users' copies of the same bytes apart", async () => {
    const bytes = binary(800, 5);
    await store.put(USER_A, sha(bytes), bytes, "text/plain");
    await store.put(USER_B, sha(bytes), bytes, "text/plain");
    await store.remove(USER_A, [sha(bytes)]);
    expect(await store.get(USER_A, sha(bytes))).toBeNull();
    expect(Buffer.from((await store.get(USER_B, sha(bytes)))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it("refuses keys that are not a uuid and a SHA-256, and bytes that are not the digest's", async () => {
    const bytes = binary(10, 6);
    const good = sha(bytes);
    const badUsers = ["../etc", "", USER_A.toUpperCase(), `${USER_A}/x`, "00000000-0000-4000-8000-00000000f11a\u0000"];
    const badShas = ["../../passwd", good.toUpperCase(), good.slice(1), `${good.slice(0, 63)}/`, `${good}0`, ".."];
    for (const userId of badUsers) {
      await expect(store.put(userId, good, bytes, "text/plain")).rejects.toThrow(/user id/);
      await expect(store.get(userId, good)).rejects.toThrow(/user id/);
      await expect(store.remove(userId, [good])).rejects.toThrow(/user id/);
    }
    for (const key of badShas) {
      await expect(store.put(USER_A, key, bytes, "text/plain")).rejects.toThrow(/SHA-256/);
      await expect(store.get(USER_A, key)).rejects.toThrow(/SHA-256/);
      await expect(store.remove(USER_A, [good, key])).rejects.toThrow(/SHA-256/);
    }
    await expect(store.put(USER_A, "a".repeat(64), bytes, "text/plain")).rejects.toThrow(/not the key/);
    expect(await store.get(USER_A, "a".repeat(64))).toBeNull();
  });
});

describe("the local file store", () => {
  let root: string;
  let store: LocalFileStore;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tempRoot, "local-only-"));
    store = new LocalFileStore(root);
  });
  afterEach(() => {
    delete process.env.THREADKEEPER_STORAGE_FLOOR_MB;
  });

  const listAll = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name)));

  it("lays objects out as <root>/<user>/<sha[0..2]>/<sha>", async () => {
    const bytes = binary(64, 7);
    const key = sha(bytes);
    await store.put(USER_A, key, bytes, "text/plain");
    const file = path.join(root, USER_A, key.slice(0, 2), key);
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("does not rewrite an object it already holds, and replaces one of the wrong size", async () => {
    const bytes = binary(2048, 8);
    const key = sha(bytes);
    const file = path.join(root, USER_A, key.slice(0, 2), key);
    await store.put(USER_A, key, bytes, "text/plain");
    const before = await stat(file);
    await store.put(USER_A, key, bytes, "text/plain");
    const after = await stat(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    // A truncated copy (not something this store writes, but a disk or a person might) is replaced.
    await writeFile(file, bytes.subarray(0, 100));
    await store.put(USER_A, key, bytes, "text/plain");
    expect(Buffer.from(await readFile(file)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("leaves no partial file when a write fails", async () => {
    const bytes = binary(100_000, 9);
    const key = sha(bytes);
    const shard = path.join(root, USER_B, key.slice(0, 2));
    // A folder where the object should go makes the final rename fail after the bytes were
    // written to the temporary file: the one failure a running process can always arrange
    // (tests may run as root, for whom a read-only folder is no obstacle).
    await mkdir(path.join(shard, key, "occupied"), { recursive: true });
    const err = await rejection(store.put(USER_B, key, bytes, "text/plain"));
    expect((err as { code?: string }).code).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/);
    expect(await readdir(shard)).toEqual([key]);
    expect(await listAll(shard)).toEqual([]);
    expect(await store.get(USER_B, key)).toBeNull();
    await rm(path.join(shard, key), { recursive: true });
    await store.put(USER_B, key, bytes, "text/plain");
    expect(await readdir(shard)).toEqual([key]);
  });

  it("answers 507 storage_full, writing nothing, when the upload would leave the disk under the floor", async () => {
    const bytes = binary(1000, 10);
    const key = sha(bytes);
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = String(1024 * 1024 * 1024); // a petabyte: no disk has it
    const err = await rejection(store.put(USER_B, key, bytes, "text/plain"));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 507, code: "storage_full" });
    expect(await store.get(USER_B, key)).toBeNull();
    expect((await listAll(root)).filter((f) => f.includes(key))).toEqual([]);
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = "0";
    await store.put(USER_B, key, bytes, "text/plain");
    expect(await store.get(USER_B, key)).not.toBeNull();
  });
});

describe("the Supabase file store", () => {
  const store = () => new SupabaseFileStore({ url: fake.url, serviceKey: fake.serviceKey, bucket: DEFAULT_FILES_BUCKET });
  const bytes = binary(4096, 11);
  const key = sha(bytes);

  beforeAll(() => fake.reset());

  it("uploads to <user>/<sha> in the bucket with the content type, never overwriting, with the service key", async () => {
    fake.reset();
    await store().put(USER_A, key, bytes, "image/webp");
    await store().put(USER_A, key, bytes, "image/webp");
    const [object, ...rest] = fake.objects(DEFAULT_FILES_BUCKET);
    expect(rest).toEqual([]);
    expect(object).toMatchObject({ name: `${USER_A}/${key}`, contentType: "image/webp" });
    const uploads = fake.requests.filter((r) => r.method === "POST");
    expect(uploads.map((r) => [r.path, r.headers["x-upsert"], r.status])).toEqual([
      [`/storage/v1/object/${DEFAULT_FILES_BUCKET}/${USER_A}/${key}`, "false", 200],
      // The second upload is Storage's Duplicate, which counts as done.
      [`/storage/v1/object/${DEFAULT_FILES_BUCKET}/${USER_A}/${key}`, "false", 400],
    ]);
    for (const r of fake.requests) {
      expect(r.headers.apikey).toBe(fake.serviceKey);
      expect(r.headers.authorization).toBe(`Bearer ${fake.serviceKey}`);
    }
  });

  it("removes in one request", async () => {
    fake.reset();
    const other = binary(10, 12);
    await store().put(USER_A, key, bytes, "text/plain");
    await store().put(USER_A, sha(other), other, "text/plain");
    await store().remove(USER_A, [key, sha(other), "e".repeat(64)]);
    expect(fake.objects()).toEqual([]);
    expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`/storage/v1/object/${DEFAULT_FILES_BUCKET}`]);
  });

  it("turns a server fault into 502 storage_unavailable with Storage's reason, on every operation", async () => {
    fake.reset();
    await store().put(USER_A, key, bytes, "text/plain");
    const attempts: [string, () => Promise<unknown>][] = [
      ["store", () => store().put(USER_A, sha(binary(5, 13)), binary(5, 13), "text/plain")],
      ["read", () => store().get(USER_A, key)],
      ["remove", () => store().remove(USER_A, [key])],
    ];
    for (const [action, attempt] of attempts) {
      fake.failNext({ status: 500, message: "database is on fire" });
      const err = await rejection(attempt());
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 502, code: "storage_unavailable" });
      expect((err as Error).message).toContain(`Could not ${action} the file`);
      expect((err as Error).message).toContain("database is on fire");
    }
    // Nothing was lost by the faults, and the next request works.
    expect(fake.objects().map((o) => o.name)).toEqual([`${USER_A}/${key}`]);
    expect(await store().get(USER_A, key)).not.toBeNull();
  });

  it("says so when Storage cannot be reached, the key is refused, or the bucket is missing", async () => {
    fake.reset();
    fake.failNext({ drop: true });
    expect(await rejection(store().get(USER_A, key))).toMatchObject({ status: 502, code: "storage_unavailable", message: expect.stringContaining("could not be reached") });

    const wrongKey = new SupabaseFileStore({ url: fake.url, serviceKey: "sb_secret_not_the_one_0000", bucket: DEFAULT_FILES_BUCKET });
    expect(await rejection(wrongKey.put(USER_A, key, bytes, "text/plain"))).toMatchObject({ status: 502, message: expect.stringContaining("Invalid API key") });

    const noBucket = new SupabaseFileStore({ url: fake.url, serviceKey: fake.serviceKey, bucket: "no-such-bucket" });
    const err = await rejection(noBucket.get(USER_A, key));
    expect(err).toMatchObject({ status: 502, code: "storage_unavailable" });
    expect((err as Error).message).toMatch(/"no-such-bucket" does not exist.*supabase db push/);
  });

  it("gives up on a request that hangs past its timeout", async () => {
    const server = await import("node:http").then((http) => http.createServer(() => {}));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const hung = new SupabaseFileStore({ url: `http://127.0.0.1:${port}`, serviceKey: fake.serviceKey, bucket: DEFAULT_FILES_BUCKET, timeoutMs: 200 });
      expect(await rejection(hung.get(USER_A, key))).toMatchObject({ status: 502, code: "storage_unavailable" });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("fileStore(): the store chosen from the environment", () => {
  const VARS = ["THREADKEEPER_FILE_STORE", "THREADKEEPER_FILES_DIR", "THREADKEEPER_FILES_BUCKET", "THREADKEEPER_DATA_DIR", "SUPABASE_URL", "NEXT_PUBLIC_SUPABASE_URL", "SUPABASE_SERVICE_ROLE_KEY"];
  const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
  const choose = (vars: Record<string, string>): FileStore => {
    for (const k of VARS) delete process.env[k];
    Object.assign(process.env, vars);
    setFileStore(undefined);
    return fileStore();
  };
  afterAll(() => {
    for (const k of VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    setFileStore(undefined);
  });

  it("is a folder beside the embedded database's without Supabase, and THREADKEEPER_FILES_DIR when set", () => {
    const local = choose({ THREADKEEPER_DATA_DIR: path.join(tempRoot, "db", "pglite") });
    expect(local).toBeInstanceOf(LocalFileStore);
    expect((local as LocalFileStore).root).toBe(path.join(tempRoot, "db", "pglite-files"));
    expect(fileStore()).toBe(local); // chosen once
    const memory = choose({ THREADKEEPER_DATA_DIR: "memory://" }) as LocalFileStore;
    expect(memory.root.startsWith(os.tmpdir())).toBe(true);
    expect((choose({ THREADKEEPER_FILES_DIR: path.join(tempRoot, "chosen") }) as LocalFileStore).root).toBe(path.join(tempRoot, "chosen"));
  });

  it("is Supabase Storage when SUPABASE_URL is set, unless THREADKEEPER_FILE_STORE=local", () => {
    expect(choose({ SUPABASE_URL: fake.url, SUPABASE_SERVICE_ROLE_KEY: fake.serviceKey }).kind).toBe("supabase");
    expect(choose({ NEXT_PUBLIC_SUPABASE_URL: fake.url, SUPABASE_SERVICE_ROLE_KEY: fake.serviceKey }).kind).toBe("supabase");
    expect(choose({ SUPABASE_URL: fake.url, THREADKEEPER_FILE_STORE: "local", THREADKEEPER_FILES_DIR: tempRoot }).kind).toBe("local");
  });

  it("names the missing variable when Supabase is chosen without what it needs", () => {
    expect(() => choose({ SUPABASE_URL: fake.url })).toThrow(/SUPABASE_SERVICE_ROLE_KEY/);
    expect(() => choose({ THREADKEEPER_FILE_STORE: "supabase" })).toThrow(/SUPABASE_URL/);
    expect(() => choose({ THREADKEEPER_FILE_STORE: "s3" })).toThrow(/THREADKEEPER_FILE_STORE/);
    // A failed choice is not kept: the next call reads the environment again.
    process.env.SUPABASE_SERVICE_ROLE_KEY = fake.serviceKey;
    process.env.SUPABASE_URL = fake.url;
    delete process.env.THREADKEEPER_FILE_STORE;
    expect(fileStore().kind).toBe("supabase");
  });

  it("stores through the configured bucket", async () => {
    fake.reset();
    const store = choose({ SUPABASE_URL: fake.url, SUPABASE_SERVICE_ROLE_KEY: fake.serviceKey });
    const bytes = binary(100, 14);
    await store.put(USER_B, sha(bytes), bytes, "text/plain");
    expect(fake.objects().map((o) => [o.bucket, o.name])).toEqual([[DEFAULT_FILES_BUCKET, `${USER_B}/${sha(bytes)}`]]);
  });
});
