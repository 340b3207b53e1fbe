import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Database } from "./driver";

const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");

/**
 * Applies supabase/migrations/*.sql in file-name order, each exactly once, each in its own
 * transaction together with its tracking row, so a failed migration leaves no trace.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  await db.transaction((tx) =>
    tx.exec(`create table if not exists public.threadkeeper_migrations (
      name text primary key, applied_at timestamptz not null default now())`),
  );
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(path.join(dir, name), "utf8");
    const done = await db.transaction(async (tx) => {
      // The lock serializes concurrent app instances starting at once.
      await tx.query("lock table public.threadkeeper_migrations in exclusive mode");
      const rows = await tx.query("select 1 from public.threadkeeper_migrations where name = $1", [name]);
      if (rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query("insert into public.threadkeeper_migrations (name) values ($1)", [name]);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}

/** The Supabase-provided auth objects, for the embedded database only. */
export async function applyEmbeddedAuth(db: Database): Promise<void> {
  const sql = await readFile(path.join(process.cwd(), "lib", "db", "embedded-auth.sql"), "utf8");
  await db.transaction((tx) => tx.exec(sql));
}
