import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { yieldToLoop } from "@/lib/context/yield";

/** What a query runs on: the current transaction. */
export interface Tx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database {
  readonly kind: "pglite" | "postgres";
  /** Every unit of work is one short transaction; never hold one across an LLM call. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** A statement that cannot run inside a transaction (VACUUM). */
  execAutocommit(sql: string): Promise<void>;
  close(): Promise<void>;
  /** Connections held by a transaction now, and the most there can be (the metrics' pool gauge); a wrapper may leave it out. */
  pool?(): { inUse: number; max: number };
  /**
   * Calls `onPayload` for each NOTIFY on `channel`, and `onListen` each time listening starts
   * (again after a lost connection: what was announced meanwhile was missed). PostgreSQL listens
   * on a connection of its own, never one of the pool's. A wrapper may leave it out.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onListen: () => void): Promise<() => Promise<void>>;
}

/**
 * Whether the database refused a statement for the data it carried (SQLSTATE class 22, a value
 * out of range or malformed; 23, a constraint), not for its own state: the same data would fail
 * again, other data can go on. PGlite and PostgreSQL both give the code.
 */
export function isDataError(err: unknown): boolean {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** A table module's column list with each column qualified by `alias`, for queries that join. */
export function qualify(columns: string, alias: string): string {
  return columns
    .split(",")
    .map((c) => `${alias}.${c.trim()}`)
    .join(", ");
}

/** `afterClose`: what else closing it ends (the data folder's lock). */
export function fromPGlite(pg: PGlite, afterClose?: () => Promise<void>): Database {
  let inUse = 0;
  return {
    kind: "pglite",
    // A timer's turn before each transaction: PGlite answers through promises alone, so
    // back-to-back transactions (a compaction's dozen) would otherwise hold the thread as one.
    transaction: async (fn) => {
      await yieldToLoop();
      return pg.transaction((t) =>
        holding(() => inUse++, () => inUse--, () => fn({
          query: async <T>(sql: string, params?: unknown[]) => (await t.query<T>(sql, params)).rows,
          exec: async (sql) => {
            await t.exec(sql);
          },
        })),
      );
    },
    execAutocommit: async (sql) => {
      await pg.exec(sql);
    },
    close: async () => {
      try {
        await pg.close();
      } finally {
        await afterClose?.();
      }
    },
    pool: () => ({ inUse, max: 1 }),
    // One connection: a NOTIFY of its own transactions reaches it at their commit.
    listen: async (channel, onPayload, onListen) => {
      const unlisten = await pg.listen(channel, onPayload);
      onListen();
      return () => unlisten();
    },
  };
}

/** Runs fn between a count's increment and decrement. */
async function holding<T>(up: () => void, down: () => void, fn: () => Promise<T>): Promise<T> {
  up();
  try {
    return await fn();
  } finally {
    down();
  }
}

export function fromPostgres(sql: Sql): Database {
  let inUse = 0;
  return {
    kind: "postgres",
    transaction: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
      const result = await sql.begin((t) =>
        holding(() => inUse++, () => inUse--, () => fn({
          query: async <R>(text: string, params?: unknown[]) =>
            // postgres.js types parameters loosely; values are serialized by the server's inferred types.
            // Prepared (unsafe() does not prepare by default): a statement is parsed and described
            // once per connection, then each run is one round trip, and the server keeps its plan.
            (await t.unsafe(text, (params ?? []) as never[], { prepare: true })) as unknown as R[],
          exec: async (text) => {
            await t.unsafe(text);
          },
        })),
      );
      return result as T;
    },
    execAutocommit: async (text) => {
      await sql.unsafe(text);
    },
    close: () => sql.end({ timeout: 5 }),
    // postgres.js does not report its pool; transactions hold a connection each.
    pool: () => ({ inUse, max: sql.options.max }),
    // postgres.js listens on a dedicated connection, reconnects it and listens again (onlisten).
    listen: async (channel, onPayload, onListen) => {
      const { unlisten } = await sql.listen(channel, onPayload, onListen);
      return unlisten;
    },
  };
}
