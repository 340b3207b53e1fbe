import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_USER_ID, openEmbedded, setDb, withUser, type Database } from "@/lib/db";
import { leaseAndAppend } from "@/lib/db/lease-append";
import type { NewMessage } from "@/lib/db/messages";
import { migrate } from "@/lib/db/migrate";

const OTHER_USER = "00000000-0000-4000-8000-0000000000b2";
let db: Database;

beforeAll(async () => {
  db = await openEmbedded("memory://");
  setDb(db);
  await db.transaction((tx) => tx.query("insert into auth.users (id) values ($1)", [OTHER_USER]));
});
afterAll(async () => {
  setDb(undefined);
  await db.close();
});

describe("migrations", () => {
  it("applies each migration exactly once", async () => {
    expect(await migrate(db)).toEqual([]);
    const rows = await db.transaction((tx) => tx.query<{ name: string }>("select name from threadkeeper_migrations"));
    expect(rows.length).toBeGreaterThan(0);
  });

  it("leaves no trace of a failing migration", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const dir = await mkdtemp(path.join(os.tmpdir(), "tk-mig-"));
    await writeFile(`${dir}/001_ok.sql`, "create table public.mig_ok (id int);");
    await writeFile(`${dir}/002_bad.sql`, "create table public.mig_bad (id int); select 1/0;");
    await expect(migrate(db, dir)).rejects.toThrow();
    const names = await db.transaction((tx) =>
      tx.query<{ name: string }>("select name from threadkeeper_migrations where name like '00%'"),
    );
    expect(names.map((r) => r.name)).toEqual(["001_ok.sql"]);
    const bad = await db.transaction((tx) => tx.query("select to_regclass('public.mig_bad') as t"));
    expect(bad[0]).toEqual({ t: null });
  });
});

describe("row level security", () => {
  it("hides another user's rows even when a query omits the user filter", async () => {
    await withUser(LOCAL_USER_ID, (tx) => tx.query("insert into sessions (title, model) values ('mine', 'claude-haiku-4-5')"));
    await withUser(OTHER_USER, (tx) => tx.query("insert into sessions (title, model) values ('theirs', 'claude-haiku-4-5')"));
    const mine = await withUser(LOCAL_USER_ID, (tx) => tx.query<{ title: string }>("select title from sessions"));
    expect(mine.map((r) => r.title)).toEqual(["mine"]);
    const theirs = await withUser(OTHER_USER, (tx) => tx.query<{ title: string }>("select title from sessions"));
    expect(theirs.map((r) => r.title)).toEqual(["theirs"]);
  });

  it("refuses writes on behalf of another user", async () => {
    await expect(
      withUser(LOCAL_USER_ID, (tx) =>
        tx.query("insert into sessions (user_id, title, model) values ($1, 'forged', 'x')", [OTHER_USER]),
      ),
    ).rejects.toThrow(/row-level security/);
    const updated = await withUser(LOCAL_USER_ID, (tx) => tx.query("update sessions set title = 'hijacked' where title = 'theirs' returning id"));
    expect(updated).toEqual([]);
  });
});

describe("a session's owner (checked when written, not on every update; migration 20261127000003)", () => {
  const GHOST = "00000000-0000-4000-8000-0000000000c3";
  it("refuses a session of a user who does not exist, or moved to one", async () => {
    const code = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string }) => e.code);
    expect(await code(db.transaction((tx) => tx.query("insert into sessions (user_id, title, model) values ($1, 'x', 'm')", [GHOST])))).toBe("23503");
    const [s] = await db.transaction((tx) =>
      tx.query<{ id: string }>("insert into sessions (user_id, title, model) values ($1, 'x', 'm') returning id", [OTHER_USER]),
    );
    expect(await code(db.transaction((tx) => tx.query("update sessions set user_id = $2 where id = $1", [s.id, GHOST])))).toBe("23503");
    await db.transaction((tx) => tx.query("delete from sessions where id = $1", [s.id]));
  });

  it("a user's deletion takes their sessions, messages and the messages' index rows with it", async () => {
    const user = "00000000-0000-4000-8000-0000000000c4";
    await db.transaction((tx) => tx.query("insert into auth.users (id) values ($1)", [user]));
    await withUser(user, async (tx) => {
      const [s] = await tx.query<{ id: string }>("insert into sessions (title, model, next_seq) values ('gone', 'claude-haiku-4-5', 2) returning id");
      await tx.query("insert into messages (session_id, seq, turn_seq, role, content, text, token_count, status) values ($1, 1, 1, 'user', '[]', 'hello there', 3, 'complete')", [s.id]);
    });
    const counts = () =>
      db.transaction(async (tx) => {
        const n: number[] = [];
        for (const t of ["sessions", "messages", "message_embeddings"]) n.push(Number((await tx.query<{ n: number }>(`select count(*)::int as n from ${t} where user_id = $1`, [user]))[0].n));
        return n;
      });
    expect(await counts()).toEqual([1, 1, 1]);
    await db.transaction((tx) => tx.query("delete from auth.users where id = $1", [user]));
    expect(await counts()).toEqual([0, 0, 0]);
  });
});

describe("a new turn's start in one statement (leaseAndAppend)", () => {
  const message = (key: string | null): NewMessage => ({
    role: "user",
    content: [{ type: "text", text: "hello" }],
    text: "hello",
    tokenCount: 3,
    status: "complete",
    startsTurn: true,
    idempotencyKey: key,
  });
  const start = (sessionId: string, leaseId: string, key: string | null) =>
    withUser(LOCAL_USER_ID, (tx) => leaseAndAppend(tx, LOCAL_USER_ID, sessionId, { id: leaseId, ttlMs: 30_000 }, message(key)));

  it("takes a free lease with the message and returns the session as it then stands; a held lease is busy and writes nothing; a stored key is a replay once the lease is free", async () => {
    const [s] = await withUser(LOCAL_USER_ID, (tx) =>
      tx.query<{ id: string }>("insert into sessions (title, model) values ('lease', 'claude-haiku-4-5') returning id"),
    );
    const first = await start(s.id, "00000000-0000-4000-8000-00000000a001", "k-1");
    expect(first.kind).toBe("taken");
    if (first.kind !== "taken") return;
    expect(first.message).toMatchObject({ seq: 1, turn_seq: 1, text: "hello", idempotency_key: "k-1" });
    expect(first.message.created_at).toBeInstanceOf(Date);
    expect(first.session).toMatchObject({ id: s.id, next_seq: 2, last_turn_seq: 1, message_count: 1 });
    expect(first.inputs.tokensToday).toBe(0);

    // Held by the turn above: the same key, or a new one, waits.
    expect(await start(s.id, "00000000-0000-4000-8000-00000000a002", "k-1")).toEqual({ kind: "busy" });
    expect(await start(s.id, "00000000-0000-4000-8000-00000000a002", "k-2")).toEqual({ kind: "busy" });
    await withUser(LOCAL_USER_ID, (tx) => tx.query("update sessions set turn_lock_id = null, turn_lock_until = null where id = $1", [s.id]));
    expect(await start(s.id, "00000000-0000-4000-8000-00000000a003", "k-1")).toEqual({ kind: "duplicate" });
    const [row] = await withUser(LOCAL_USER_ID, (tx) =>
      tx.query<{ n: number; lock: string | null }>("select (select count(*)::int from messages where session_id = $1) as n, turn_lock_id as lock from sessions where id = $1", [s.id]),
    );
    expect(row).toEqual({ n: 1, lock: null });
  });

  it("is a 404 for a session that is not the caller's", async () => {
    const [theirs] = await withUser(OTHER_USER, (tx) =>
      tx.query<{ id: string }>("insert into sessions (title, model) values ('theirs', 'claude-haiku-4-5') returning id"),
    );
    await expect(start(theirs.id, "00000000-0000-4000-8000-00000000a004", null)).rejects.toMatchObject({ status: 404 });
  });
});

describe("after a crash", () => {
  it("marks replies left streaming as interrupted once their lease has expired, keeping the text", async () => {
    const { appendMessage } = await import("@/lib/db/messages");
    const { sweepStaleStreams } = await import("@/lib/db/maintenance");
    const [s] = await withUser(LOCAL_USER_ID, (tx) =>
      tx.query<{ id: string }>("insert into sessions (title, model) values ('crash', 'claude-haiku-4-5') returning id"),
    );
    const msg = await withUser(LOCAL_USER_ID, (tx) =>
      appendMessage(tx, LOCAL_USER_ID, s.id, {
        role: "assistant",
        content: [{ type: "text", text: "half a repl" }],
        text: "half a repl",
        tokenCount: 0,
        status: "streaming",
        startsTurn: false,
      }),
    );
    // A live lease means another instance is still streaming it: left alone.
    await db.transaction((tx) => tx.query("update sessions set turn_lock_id = gen_random_uuid(), turn_lock_until = now() + interval '1 minute' where id = $1", [s.id]));
    expect(await sweepStaleStreams(db)).toBe(0);
    await db.transaction((tx) => tx.query("update sessions set turn_lock_until = now() - interval '1 second' where id = $1", [s.id]));
    expect(await sweepStaleStreams(db)).toBe(1);
    const [row] = await db.transaction((tx) =>
      tx.query<{ status: string; text: string; token_count: number }>("select status, text, token_count from messages where id = $1", [msg.id]),
    );
    expect(row.status).toBe("interrupted");
    expect(row.text).toBe("half a repl");
    expect(row.token_count).toBeGreaterThan(0);
  });

  it("refuses to rewrite a finished message (append-only)", async () => {
    await expect(
      db.transaction((tx) => tx.query("update messages set text = 'rewritten' where status <> 'streaming'")),
    ).rejects.toThrow(/append-only/);
  });
});
