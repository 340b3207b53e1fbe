import "server-only";
import type { Database } from "./driver";

// Users whose auth.users row this process has already made sure of, per database (tests
// swap databases), so the hot path pays for the insert once per user and process.
const known = new WeakMap<Database, Set<string>>();

/**
 * The embedded database has no Supabase Auth to create a user's auth.users row at sign-up,
 * so a verified user's row is created on first use. Supabase's own Postgres is never
 * written to here: its auth schema belongs to Supabase.
 */
export async function ensureEmbeddedUser(db: Database, userId: string, email: string | null): Promise<void> {
  if (db.kind !== "pglite") return;
  let ids = known.get(db);
  if (!ids) known.set(db, (ids = new Set()));
  if (ids.has(userId)) return;
  await db.transaction((tx) =>
    tx.query(
      `insert into auth.users (id, email) values ($1, $2)
       on conflict (id) do update set email = coalesce(excluded.email, auth.users.email)`,
      [userId, email],
    ),
  );
  ids.add(userId);
}
