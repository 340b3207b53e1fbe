// Migration 20261128000002_file_bucket.sql: a no-op where Supabase Storage does not exist (the
// embedded database here; plain PostgreSQL in the pg suite), and where it does, a private bucket
// and policies that keep each signed-in user to their own folder. Supabase's `storage` schema is
// stood in for by its few parts the migration touches, shaped as Supabase defines them.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbedded, type Database } from "@/lib/db";

const MIGRATION = "20261128000002_file_bucket.sql";
const USER_A = "00000000-0000-4000-8000-00000000b0aa";
const USER_B = "00000000-0000-4000-8000-00000000b0bb";
const SHA = "ab".repeat(32);

// storage.foldername is Supabase's own (storage/migrations): the path's folders, without the name.
const STORAGE_STAND_IN = `
  create schema storage;
  create table storage.buckets (id text primary key, name text not null, public boolean default false, file_size_limit bigint);
  create table storage.objects (
    id uuid primary key default gen_random_uuid(),
    bucket_id text references storage.buckets (id),
    name text not null,
    owner uuid,
    unique (bucket_id, name)
  );
  create function storage.foldername(name text) returns text[] language plpgsql as $$
  declare _parts text[];
  begin
    select string_to_array(name, '/') into _parts;
    return _parts[1:array_length(_parts, 1) - 1];
  end $$;
  alter table storage.objects enable row level security;
  grant usage on schema storage to authenticated;
  grant select, insert, delete on storage.objects to authenticated;
  grant execute on function storage.foldername(text) to authenticated;
`;

let db: Database;
let sql: string;

beforeAll(async () => {
  db = await openEmbedded("memory://");
  sql = await readFile(path.join(process.cwd(), "supabase", "migrations", MIGRATION), "utf8");
});
afterAll(async () => {
  await db.close();
});

/** Runs `fn`'s statements as a signed-in user, through RLS, and rolls everything back. */
async function asUser<T>(userId: string, fn: (q: (text: string) => Promise<unknown[]>) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      await tx.query("select set_config('request.jwt.claim.sub', $1, true)", [userId]);
      await tx.exec("set local role authenticated");
      result = await fn((text) => tx.query(text));
      throw new Error("rollback");
    })
    .catch((err: unknown) => {
      if (!(err instanceof Error && err.message === "rollback")) throw err;
    });
  return result as T;
}

describe("the file bucket migration", () => {
  it("was applied on the embedded database, where there is no storage schema, as a no-op", async () => {
    const rows = await db.transaction((tx) =>
      tx.query<{ name: string; storage: string | null }>(
        "select name, to_regnamespace('storage')::text as storage from threadkeeper_migrations where name = $1",
        [MIGRATION],
      ),
    );
    expect(rows).toEqual([{ name: MIGRATION, storage: null }]);
  });

  it("where Supabase Storage exists, makes a private bucket and owner-only policies, and runs again harmlessly", async () => {
    await db.transaction(async (tx) => {
      await tx.exec(STORAGE_STAND_IN);
      await tx.exec("insert into storage.buckets (id, name, public) values ('threadkeeper-files', 'threadkeeper-files', true)");
    });
    await db.transaction((tx) => tx.exec(sql));
    await db.transaction((tx) => tx.exec(sql));
    const [bucket] = await db.transaction((tx) => tx.query("select id, public, file_size_limit from storage.buckets"));
    expect(bucket).toEqual({ id: "threadkeeper-files", public: false, file_size_limit: 33_554_432 });
    const policies = await db.transaction((tx) =>
      tx.query<{ policyname: string; cmd: string; roles: string }>(
        "select policyname, cmd, roles::text from pg_policies where schemaname = 'storage' and tablename = 'objects' order by cmd",
      ),
    );
    expect(policies.map((p) => [p.cmd, p.roles])).toEqual([
      ["DELETE", "{authenticated}"],
      ["INSERT", "{authenticated}"],
      ["SELECT", "{authenticated}"],
    ]);
  });

  it("lets a signed-in user add, see and remove only objects in their own folder", async () => {
    await db.transaction((tx) =>
      tx.query("insert into storage.objects (bucket_id, name) values ('threadkeeper-files', $1), ('threadkeeper-files', $2)", [
        `${USER_B}/${SHA}`,
        `${USER_A}/${SHA}`,
      ]),
    );
    const seen = await asUser(USER_A, (q) => q("select name from storage.objects"));
    expect(seen).toEqual([{ name: `${USER_A}/${SHA}` }]);

    const removed = await asUser(USER_A, (q) => q("delete from storage.objects returning name"));
    expect(removed).toEqual([{ name: `${USER_A}/${SHA}` }]);

    const add = (name: string, bucket = "threadkeeper-files") =>
      asUser(USER_A, (q) => q(`insert into storage.objects (bucket_id, name) values ('${bucket}', '${name}') returning name`));
    await expect(add(`${USER_A}/${"cd".repeat(32)}`)).resolves.toHaveLength(1);
    await expect(add(`${USER_B}/${"cd".repeat(32)}`)).rejects.toThrow(/row-level security/);
    await expect(add("cd".repeat(32))).rejects.toThrow(/row-level security/);
    await db.transaction((tx) => tx.exec("insert into storage.buckets (id, name) values ('other', 'other')"));
    await expect(add(`${USER_A}/${"cd".repeat(32)}`, "other")).rejects.toThrow(/row-level security/);
  });
});
