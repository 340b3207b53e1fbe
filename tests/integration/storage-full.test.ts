// A full disk at the driver boundary: the database's own error (as PGlite and PostgreSQL raise
// it) becomes 507 storage_full on our API and on the Anthropic drop-in, health turns 503, and
// the storage endpoint says `full`; under the free-space floor writes are refused before they
// reach the database while reads go on. A disk that fills while the reply is being saved, after
// the person's message was, answers 507 too, saying the message is kept, and keeps it whole. The
// real device is filled in tests/reliability.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApiErrorJson, SessionJson } from "@/lib/contract";
import type { HealthUnavailableJson, StorageJson } from "@/lib/contract/health";
import type { AnthropicErrorJson } from "@/lib/contract/anthropic";
import { setDb, type Database, type Tx } from "@/lib/db";
import { guarded } from "@/lib/db/guarded";
import { STORAGE_FULL_REASON } from "@/lib/db/health";
import { isStorageFullError, measureFolder, resetStorageState } from "@/lib/db/storage";
import * as healthRoute from "@/app/api/health/route";
import * as storageRoute from "@/app/api/storage/route";
import * as sessionsRoute from "@/app/api/session/[id]/route";
import * as dropInRoute from "@/app/api/anthropic/v1/messages/route";
import { history, newSession, ofType, params, postMessage, readSse, req, useHarness } from "./harness";

/** What PGlite 0.5.14 threw when a table could not grow on a full tmpfs (measured). */
function pgliteDiskFull(): Error {
  return Object.assign(new Error('could not extend file "base/5/16385": No space left on device'), {
    name: "error",
    severity: "ERROR",
    code: "53100",
    hint: "Check free disk space.",
    routine: "mdzeroextend",
  });
}

/** A database whose device is full: every statement that would write fails as PGlite's does. */
function fullDevice(db: Database): Database {
  const writes = /^\s*(insert|update|delete|with)\b/i;
  const failing = (tx: Tx): Tx => ({
    query: async (sql, p) => {
      if (writes.test(sql)) throw pgliteDiskFull();
      return tx.query(sql, p);
    },
    exec: (sql) => tx.exec(sql),
  });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(failing(tx))) };
}

/**
 * A device that fills once the reply is written: the statement that ends a streaming reply as
 * complete fails, and everything before it (the person's message, the reply's row) went in.
 */
function fullWhileSavingReply(db: Database): Database {
  const failing = (tx: Tx): Tx => ({
    query: async (sql, p) => {
      if (/status = 'streaming'/.test(sql) && p?.includes("complete")) throw pgliteDiskFull();
      return tx.query(sql, p);
    },
    exec: (sql) => tx.exec(sql),
  });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(failing(tx))) };
}

const h = useHarness({ online: false });
let session: SessionJson;
let dataDir: string;

beforeAll(async () => {
  // The floor is measured on a real folder, though the database itself is in memory.
  dataDir = await mkdtemp(path.join(os.tmpdir(), "tk-storage-"));
  measureFolder(dataDir);
  session = await newSession({ title: "before the disk filled" });
});
afterEach(() => {
  setDb(h.db);
  delete process.env.THREADKEEPER_STORAGE_FLOOR_MB;
  delete process.env.THREADKEEPER_STORAGE_WARN_MB;
  resetStorageState();
});
afterAll(async () => {
  measureFolder(null);
  await rm(dataDir, { recursive: true, force: true });
});

const send = (content: string) => postMessage(session.id, { content }, { accept: "application/json" });

async function storageOf(): Promise<StorageJson> {
  const res = await storageRoute.GET(req("GET", "/api/storage"), undefined);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as StorageJson;
}

describe("the database says the disk is full", () => {
  // Nothing to measure (as on PostgreSQL): the database's word is all there is. A measurement
  // showing room would outweigh it, and the disk this test runs on has room.
  beforeAll(() => {
    measureFolder(null);
  });
  afterAll(() => {
    measureFolder(dataDir);
  });

  it("recognizes PGlite's, PostgreSQL's and the file system's words for it, and nothing else of class 53", () => {
    expect(isStorageFullError(pgliteDiskFull())).toBe(true);
    // PGlite, when the WAL's next segment cannot be created (measured).
    expect(isStorageFullError(Object.assign(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'), { code: "53100" }))).toBe(true);
    // postgres.js's PostgresError carries the SQLSTATE the same way.
    expect(isStorageFullError(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(true);
    expect(isStorageFullError(Object.assign(new Error("write failed"), { code: "ENOSPC" }))).toBe(true);
    expect(isStorageFullError(Object.assign(new Error("out of memory"), { code: "53200" }))).toBe(false);
    expect(isStorageFullError(Object.assign(new Error("sorry, too many clients already"), { code: "53300" }))).toBe(false);
    expect(isStorageFullError(new Error("duplicate key"))).toBe(false);
  });

  it("a send answers 507 storage_full in a sentence, health 503 with the reason, and reads go on", async () => {
    setDb(guarded(fullDevice(h.db)));
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = "0";

    const res = await send("this will not fit");
    expect(res.status).toBe(507);
    const body = (await res.json()) as ApiErrorJson;
    expect(body.error.code).toBe("storage_full");
    expect(body.error.message).toMatch(/storage is full; nothing was saved/);

    const health = await healthRoute.GET(req("GET", "/api/health"));
    expect(health.status).toBe(503);
    expect(((await health.json()) as HealthUnavailableJson).reason).toBe(STORAGE_FULL_REASON);
    const storage = await storageOf();
    expect(storage.level).toBe("full");

    const read = await sessionsRoute.GET(req("GET", `/api/session/${session.id}`), params({ id: session.id }));
    expect(read.status).toBe(200);
  });

  it("the Anthropic drop-in answers 507 in the Messages API's error shape", async () => {
    setDb(guarded(fullDevice(h.db)));
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = "0";
    const res = await dropInRoute.POST(req("POST", "/api/anthropic/v1/messages", { model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "hello" }] }));
    expect(res.status).toBe(507);
    const body = (await res.json()) as AnthropicErrorJson;
    expect(body).toMatchObject({ type: "error", error: { type: "api_error" } });
    expect(body.error.message).toMatch(/storage is full/);
  });
});

describe("the disk fills while the reply is saved", () => {
  beforeAll(() => {
    measureFolder(null);
  });
  afterAll(() => {
    measureFolder(dataDir);
  });
  const savedSentence = /storage is full, so the reply could not be saved\. Your message is saved/;
  const dropInBody = (content: string, stream: boolean) => ({ model: "claude-haiku-4-5", max_tokens: 64, stream, messages: [{ role: "user", content }] });

  it("a send answers 507 storage_full (not 502), the message is kept whole, the reply kept as interrupted, and the next send works", async () => {
    setDb(guarded(fullWhileSavingReply(h.db)));
    const s = await newSession({ title: "full at the reply" });
    const text = "a message that must survive, every byte of it;".repeat(40);
    const res = await postMessage(s.id, { content: text }, { accept: "application/json" });
    expect(res.status).toBe(507);
    const body = (await res.json()) as ApiErrorJson;
    expect(body.error.code).toBe("storage_full");
    expect(body.error.message).toMatch(savedSentence);
    expect((await healthRoute.GET(req("GET", "/api/health"))).status).toBe(503);

    const stored = (await history(s.id)).messages;
    expect(stored.map((m) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "interrupted"]]);
    expect(stored[0].content).toEqual([{ type: "text", text }]);

    setDb(h.db);
    resetStorageState();
    const again = await postMessage(s.id, { content: "and after space returns" }, { accept: "application/json" });
    expect(again.status, await again.clone().text()).toBe(201);
    expect((await history(s.id)).messages.map((m) => m.status)).toEqual(["complete", "interrupted", "complete", "complete"]);
  });

  it("streamed, the error event says storage_full after the message and the interrupted reply", async () => {
    setDb(guarded(fullWhileSavingReply(h.db)));
    const s = await newSession({ title: "full at the reply, streamed" });
    const res = await postMessage(s.id, { content: "streamed onto a full disk" });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(ofType(events, "user_message")[0].text).toBe("streamed onto a full disk");
    expect(ofType(events, "assistant_message").at(-1)?.status).toBe("interrupted");
    const [failure] = ofType(events, "error");
    expect(failure.error).toMatchObject({ code: "storage_full", message: expect.stringMatching(savedSentence) });
  });

  it("the drop-in answers 507 api_error, and a streamed drop-in ends with an api_error frame", async () => {
    setDb(guarded(fullWhileSavingReply(h.db)));
    const plain = await dropInRoute.POST(req("POST", "/api/anthropic/v1/messages", dropInBody("hello", false)));
    expect(plain.status).toBe(507);
    const body = (await plain.json()) as AnthropicErrorJson;
    expect(body).toMatchObject({ type: "error", error: { type: "api_error", message: expect.stringMatching(savedSentence) } });

    const streamed = await dropInRoute.POST(req("POST", "/api/anthropic/v1/messages", dropInBody("hello again", true)));
    expect(streamed.status).toBe(200);
    const frames = await streamed.text();
    const error = /event: error\ndata: (.*)/.exec(frames)?.[1];
    expect(error && (JSON.parse(error) as AnthropicErrorJson), frames).toMatchObject({ type: "error", error: { type: "api_error", message: expect.stringMatching(savedSentence) } });
  });
});

describe("the free-space floor", () => {
  it("refuses writes before the database is asked, keeps reads, and lets writes in again once there is room", async () => {
    // More than any disk has: the folder is "under the floor".
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = String(2 ** 40);
    let writes = 0;
    const counting: Database = { ...h.db, transaction: (fn) => h.db.transaction((tx) => fn({ ...tx, query: (sql, p) => (/^\s*insert/i.test(sql) && writes++, tx.query(sql, p)), exec: (sql) => tx.exec(sql) })) };
    setDb(counting);

    const refused = await send("refused at the door");
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as ApiErrorJson).error.code).toBe("storage_full");
    expect(writes).toBe(0);
    const read = await sessionsRoute.GET(req("GET", `/api/session/${session.id}`), params({ id: session.id }));
    expect(read.status, await read.clone().text()).toBe(200);
    expect((await healthRoute.GET(req("GET", "/api/health"))).status).toBe(503);
    const storage = await storageOf();
    expect(storage).toMatchObject({ level: "full", refuse_below_bytes: 2 ** 60 });
    expect(storage.free_bytes).toBeGreaterThan(0);

    process.env.THREADKEEPER_STORAGE_FLOOR_MB = "0";
    resetStorageState();
    expect((await healthRoute.GET(req("GET", "/api/health"))).status).toBe(200);
    const accepted = await send("there is room again");
    expect(accepted.status).toBe(201);
  });

  it("under the warning level the storage endpoint says low, and health stays 200", async () => {
    process.env.THREADKEEPER_STORAGE_FLOOR_MB = "0";
    process.env.THREADKEEPER_STORAGE_WARN_MB = String(2 ** 40);
    const storage = await storageOf();
    expect(storage.level).toBe("low");
    expect((await healthRoute.GET(req("GET", "/api/health"))).status).toBe(200);
  });
});
