import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database, Tx } from "./driver";

const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");
/** An arbitrary advisory-lock key of our own, held while the tracking table is set up. */
const MIGRATIONS_LOCK_KEY = 7_261_122_001;

/**
 * Applies supabase/migrations/*.sql in file-name order, each exactly once, each in its own
 * transaction together with its tracking row, so a failed migration leaves no trace. A migration
 * the Supabase CLI already applied (`supabase db push`, `supabase db reset`: its version, the file
 * name's timestamp, in supabase_migrations.schema_migrations) is recorded without running again.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  await db.transaction(async (tx) => {
    // CREATE TABLE IF NOT EXISTS is not race-free: two instances starting at once on a fresh
    // PostgreSQL both create the table and one fails on pg_type's unique index.
    await tx.query(`select pg_advisory_xact_lock(${MIGRATIONS_LOCK_KEY})`);
    await tx.exec(`create table if not exists public.threadkeeper_migrations (
      name text primary key, applied_at timestamptz not null default now())`);
    // Supabase grants anon and authenticated every table in public; RLS without a policy keeps
    // this one to its owner (the app), like every other table.
    await tx.exec(`do $$ begin
      if not (select relrowsecurity from pg_class where oid = 'public.threadkeeper_migrations'::regclass) then
        alter table public.threadkeeper_migrations enable row level security;
      end if;
    end $$`);
  });
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(path.join(dir, name), "utf8");
    const done = await db.transaction(async (tx) => {
      // The lock serializes concurrent app instances starting at once.
      await tx.query("lock table public.threadkeeper_migrations in exclusive mode");
      const rows = await tx.query("select 1 from public.threadkeeper_migrations where name = $1", [name]);
      if (rows.length > 0) return false;
      if (!(await appliedBySupabaseCli(tx, name))) await tx.exec(sql);
      await tx.query("insert into public.threadkeeper_migrations (name) values ($1)", [name]);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}

/** Whether the Supabase CLI's own history names this migration (by its version, the file name's leading timestamp). */
async function appliedBySupabaseCli(tx: Tx, name: string): Promise<boolean> {
  const version = /^(\d+)_/.exec(name)?.[1];
  if (!version) return false;
  // Two statements: a query naming a table that does not exist fails however it is guarded.
  const [history] = await tx.query<{ t: string | null }>("select to_regclass('supabase_migrations.schema_migrations')::text as t");
  if (!history?.t) return false;
  const rows = await tx.query("select 1 from supabase_migrations.schema_migrations where version = $1", [version]);
  return rows.length > 0;
}

/** The Supabase-provided auth objects, for the embedded database only. */
export async function applyEmbeddedAuth(db: Database): Promise<void> {
  const sql = await readFile(path.join(process.cwd(), "lib", "db", "embedded-auth.sql"), "utf8");
  await db.transaction((tx) => tx.exec(sql));
}
