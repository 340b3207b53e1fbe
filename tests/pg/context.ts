// What the suite's global setup hands to the test files.
import { inject } from "vitest";

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
