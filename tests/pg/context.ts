// What the suite's global setup hands to the test files.
import postgres, { type Sql } from "postgres";
import { inject } from "vitest";
import { setDb, type Database } from "@/lib/db";
import { fromPostgres } from "@/lib/db/driver";

/** The app's login role: Supabase's `postgres`, which is not a superuser there (nor here). */
export const APP_ROLE = "postgres";

export type PgContext =
  | { available: false; reason: string }
  | { available: true; port: number; superuserUrl: string; appUrl: string };

declare module "vitest" {
  export interface ProvidedContext {
    pg: PgContext;
  }
}

export function pgContext(): PgContext {
  return inject("pg");
}

export type ReadyPg = Extract<PgContext, { available: true }>;

/** The cluster, inside a suite that is skipped when there is none. */
export function readyPg(): ReadyPg {
  const pg = pgContext();
  if (!pg.available) throw new Error(pg.reason);
  return pg;
}

/**
 * For a suite that works as one user on the app's role: the user made (as the superuser), a pool
 * of `max` connections as the app's database, and `close` for afterAll.
 */
export function userDatabase(userId: string, email: string, max: number): { ready: () => Promise<Database>; close: () => Promise<void> } {
  let admin: Sql | undefined;
  let sql: Sql | undefined;
  return {
    async ready() {
      const pg = readyPg();
      admin = postgres(pg.superuserUrl, { max: 1, onnotice: () => {} });
      await admin`insert into auth.users (id, email, aud, role) values (${userId}, ${email}, 'authenticated', 'authenticated')`;
      sql = postgres(pg.appUrl, { max, onnotice: () => {} });
      const db = fromPostgres(sql);
      setDb(db);
      return db;
    },
    async close() {
      setDb(undefined);
      await sql?.end({ timeout: 5 });
      await admin?.end({ timeout: 5 });
    },
  };
}
