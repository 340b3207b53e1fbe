// Row-level security on a real PostgreSQL 15 with Supabase's roles and privileges: the
// migrations were applied by the app's own runner as `postgres` (the tables' owner); every
// check here runs as `authenticated` (or `anon`), which owns nothing, through the app's
// withUser exactly as a request does.
import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromPostgres, type Database, type Tx } from "@/lib/db/driver";
import { setDb, withUser } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { applyFixture, SUPERUSER } from "./cluster";
import { APP_ROLE, pgContext, readyPg } from "./context";

const available = pgContext().available;
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "..", "..", "supabase", "migrations");

const USER_A = randomUUID();
const USER_B = randomUUID();

interface Seeded {
  project: string;
  session: string;
  fork: string;
  message: string;
  memory: string;
  webhook: string;
  file: string;
}

/**
 * One row of user A in every table with row-level security, written as A through withUser
 * (so `user_id` comes from the column default `auth.uid()`, as in the app). A table added by a
 * later migration without an entry here fails the "every table" test below.
 */
const SEEDS: Record<string, (tx: Tx, s: Seeded) => Promise<unknown>> = {
  user_settings: (tx) => tx.query("insert into user_settings (compaction_threshold) values (0.8)"),
  projects: (tx, s) => tx.query("insert into projects (id, name) values ($1, 'A project')", [s.project]),
  sessions: async (tx, s) => {
    await tx.query("insert into sessions (id, model, project_id) values ($1, 'claude-haiku-4-5', $2)", [s.session, s.project]);
    await tx.query("insert into sessions (id, model, parent_session_id) values ($1, 'claude-haiku-4-5', $2)", [s.fork, s.session]);
  },
  messages: (tx, s) =>
    tx.query(
      `insert into messages (id, session_id, seq, turn_seq, role, content, text)
       values ($1, $2, 1, 1, 'user', '[{"type":"text","text":"A secret plan"}]', 'A secret plan')`,
      [s.message, s.session],
    ),
  // The messages seed enqueued its message (a trigger); this is the indexer's update of it.
  message_embeddings: (tx, s) =>
    tx.query(
      `update message_embeddings set model = 'local-lexical-v1', embedding = array_fill(0.0625, array[256])::halfvec where message_id = $1`,
      [s.message],
    ),
  canvas_events: (tx, s) =>
    tx.query(`insert into canvas_events (session_id, at_seq, payload, source) values ($1, 1, '{"op":"clear"}', 'user')`, [s.session]),
  model_calibrations: (tx) => tx.query("insert into model_calibrations (model, factor) values ('claude-haiku-4-5', 1.1)"),
  compaction_logs: (tx, s) =>
    tx.query(
      `insert into compaction_logs (session_id, trigger, method, from_turn, through_turn, at_seq, prev_window_start_turn,
         summary, pre_tokens, post_tokens, reduction_percent, messages_condensed, duration_ms, at_turn)
       values ($1, 'manual', 'llm', 1, 1, 1, 1, 'A summary', 100, 50, 50, 1, 1, 1)`,
      [s.session],
    ),
  prompt_templates: (tx) => tx.query("insert into prompt_templates (name, body) values ('A template', 'Summarize.')"),
  session_checkpoints: (tx, s) =>
    tx.query(
      `insert into session_checkpoints (session_id, trigger, through_seq, through_turn, window_start_turn, token_count)
       values ($1, 'manual', 1, 1, 1, 10)`,
      [s.session],
    ),
  session_memories: (tx, s) =>
    tx.query(
      `insert into session_memories (id, session_id, source, summary, embedding, embedding_model)
       values ($1, $2, 'manual', 'A remembers the plan', array_fill(0.1::real, array[1024])::vector, 'local-lexical-v1')`,
      [s.memory, s.session],
    ),
  session_loaded_memories: (tx, s) =>
    tx.query("insert into session_loaded_memories (session_id, memory_id, tokens, score) values ($1, $2, 10, 0.5)", [
      s.session,
      s.memory,
    ]),
  session_lineage: (tx, s) =>
    tx.query("insert into session_lineage (session_id, source_session_id, from_seq, to_seq) values ($1, $2, 1, 1)", [
      s.fork,
      s.session,
    ]),
  inherited_protection: (tx, s) =>
    tx.query("insert into inherited_protection (session_id, message_id) values ($1, $2)", [s.fork, s.message]),
  llm_calls: (tx, s) =>
    tx.query(
      `insert into llm_calls (session_id, turn_seq, kind, model, input_tokens, output_tokens, cost_usd)
       values ($1, 1, 'chat', 'claude-haiku-4-5', 100, 10, 0.00015)`,
      [s.session],
    ),
  audit_log: (tx, s) =>
    tx.query(
      `insert into audit_log (action, actor_type, target_type, target_id, metadata)
       values ('session.created', 'user', 'session', $1, '{"note":"A secret plan"}')`,
      [s.session],
    ),
  webhooks: (tx, s) =>
    tx.query("insert into webhooks (id, url, events, secret) values ($1, 'https://hooks.example.com/a', '{checkpoint.created}', 'a-signing-secret-of-a')", [
      s.webhook,
    ]),
  webhook_deliveries: (tx, s) =>
    tx.query(`insert into webhook_deliveries (webhook_id, event, payload) values ($1, 'checkpoint.created', '{"note":"A secret plan"}')`, [s.webhook]),
  // The rollups below are written by llm_calls' statement trigger when its seed runs (as A):
  // no user may write them (migration 20261123000009).
  // Word statistics, written by messages' statement triggers when its seed runs (migration 20261126000001).
  search_terms: async () => {},
  search_totals: async () => {},
  llm_usage_day_models: async () => {},
  llm_usage_day_sessions: async () => {},
  llm_usage_daily: async () => {},
  api_keys: (tx) =>
    tx.query(
      `insert into api_keys (name, prefix, key_hash, scopes) values ('A key', 'tk_live_AbCd1234', encode(sha256(gen_random_uuid()::text::bytea), 'hex'), '{read,write}')`,
    ),
  rate_limits: (tx) => tx.query("insert into rate_limits (bucket, refilled_at) values ('requests', now())"),
  files: (tx, s) =>
    tx.query(
      `insert into files (id, session_id, name, media_type, kind, size, sha256) values ($1, $2, 'plan.txt', 'text/plain', 'text', 13, repeat('a', 64))`,
      [s.file, s.session],
    ),
  file_pages: (tx, s) => tx.query("insert into file_pages (file_id, page, text) values ($1, 1, 'A secret plan')", [s.file]),
  file_uses: (tx, s) => tx.query("insert into file_uses (session_id, file_id, seq, turn_seq, tokens) values ($1, $2, 1, 1, 5)", [s.session, s.file]),
  client_conversations: (tx, s) => tx.query("insert into client_conversations (conversation, session_id) values ('x-claude-code-session-id:a', $1)", [s.session]),
  imports: (tx) => tx.query("insert into imports (file_name, format, errors) values ('conversations.json', 'chatgpt', '[{\"reason\":\"A secret plan\"}]')"),
  session_drafts: (tx, s) => tx.query("insert into session_drafts (session_id, text) values ($1, 'A draft')", [s.session]),
};

/** Tables users read but only triggers write (migrations 20261123000009, 20261126000001). */
const USAGE_ROLLUPS = ["llm_usage_daily", "llm_usage_day_models", "llm_usage_day_sessions"];
const READ_ONLY = new Set([...USAGE_ROLLUPS, "search_terms", "search_totals"]);

const seededIds: Seeded = {
  project: randomUUID(),
  session: randomUUID(),
  fork: randomUUID(),
  message: randomUUID(),
  memory: randomUUID(),
  webhook: randomUUID(),
  file: randomUUID(),
};

/**
 * Every reference from one user-owned table to another (a foreign key, or one kept by a trigger: UNKEYED), as [table, column, parent table]. RLS
 * (migration 20261123000001) refuses a new or changed row whose parent is someone else's. A
 * foreign key added by a later migration without an entry here fails the catalog test below.
 */
const PARENT_REFS: [string, string, string][] = [
  ["canvas_events", "session_id", "sessions"],
  ["compaction_logs", "prev_compaction_id", "compaction_logs"],
  ["compaction_logs", "session_id", "sessions"],
  ["file_pages", "file_id", "files"],
  ["file_uses", "file_id", "files"],
  ["file_uses", "session_id", "sessions"],
  ["client_conversations", "session_id", "sessions"],
  ["session_drafts", "session_id", "sessions"],
  ["files", "session_id", "sessions"],
  ["inherited_protection", "message_id", "messages"],
  ["inherited_protection", "session_id", "sessions"],
  ["message_embeddings", "message_id", "messages"],
  ["messages", "session_id", "sessions"],
  ["session_checkpoints", "session_id", "sessions"],
  ["session_checkpoints", "summary_id", "compaction_logs"],
  ["session_lineage", "session_id", "sessions"],
  ["session_lineage", "source_session_id", "sessions"],
  ["session_loaded_memories", "memory_id", "session_memories"],
  ["session_loaded_memories", "session_id", "sessions"],
  ["session_memories", "project_id", "projects"],
  ["session_memories", "session_id", "sessions"],
  ["sessions", "forked_from_checkpoint_id", "session_checkpoints"],
  ["sessions", "parent_session_id", "sessions"],
  ["sessions", "import_id", "imports"],
  ["sessions", "project_id", "projects"],
  ["sessions", "summary_id", "compaction_logs"],
  ["webhook_deliveries", "webhook_id", "webhooks"],
];

/** References checked by a composite foreign key to the parent's (id, user_id) (migration 20261127000002). */
const KEYED = new Set(["messages.session_id"]);

/** References kept without a foreign key, the policy alone guarding them (a trigger removes the row with its parent; migration 20261127000003). */
const UNKEYED = new Set(["message_embeddings.message_id"]);

/** A new id of the same kind as `id`: a uuid, or (canvas_events' identity column, read as text) a number far past it. */
const freshId = (id: unknown) => (/^\d+$/.test(String(id)) ? String(BigInt(String(id)) + 1_000_000n) : randomUUID());

/** The SQLSTATE of a failed statement (postgres.js puts it on the error's `code`). */
async function sqlState(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return err instanceof Error && "code" in err ? String(err.code) : String(err);
  }
}

/** SQLSTATE and message of a failed statement, or null when it succeeded. */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string } | null> {
  try {
    await p;
    return null;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    return { code: String(e.code), message: String(e.message) };
  }
}

/** A transaction as Supabase's `anon` role: no claims at all. */
function asAnon<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("set local role anon");
    return fn(tx);
  });
}

const count = async (tx: Tx, sql: string, params?: unknown[]): Promise<number> =>
  Number((await tx.query<{ n: string | number }>(sql, params))[0].n);

describe.skipIf(!available)("real PostgreSQL 15: migrations and row-level security", () => {
  let admin: Sql;
  let db: Database;
  /** Each table's row of A as JSON, read by A, for the insert-as-someone-else checks. */
  const rowsOfA = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    const pg = readyPg();
    admin = postgres(pg.superuserUrl, { max: 2, onnotice: () => {} });
    // Supabase Auth creates auth.users rows at sign-up; here the superuser stands in for it.
    await admin`insert into auth.users (id, email, aud, role) values
      (${USER_A}, 'a@example.test', 'authenticated', 'authenticated'),
      (${USER_B}, 'b@example.test', 'authenticated', 'authenticated')`;
    db = fromPostgres(postgres(pg.appUrl, { max: 4, onnotice: () => {} }));
    setDb(db);
    await withUser(USER_A, async (tx) => {
      for (const seed of Object.values(SEEDS)) await seed(tx, seededIds);
    });
    await withUser(USER_A, async (tx) => {
      for (const table of Object.keys(SEEDS)) {
        const [row] = await tx.query<{ r: Record<string, unknown> }>(`select to_jsonb(t) as r from public.${table} t limit 1`);
        rowsOfA.set(table, row.r);
      }
    });
  });

  afterAll(async () => {
    setDb(undefined);
    await db?.close();
    await admin?.end({ timeout: 5 });
  });

  it("applied every migration once through the app's runner, and a second run applies nothing", async () => {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
    const applied = await admin<{ name: string }[]>`select name from public.threadkeeper_migrations order by name`;
    expect(applied.map((r) => r.name)).toEqual(files);
    expect(await migrate(db)).toEqual([]);
  });

  it("two app instances migrating one fresh database at once apply each migration exactly once", async () => {
    const pg = readyPg();
    const name = `tk_fresh_${Date.now()}`;
    await admin.unsafe(`create database ${name} owner ${APP_ROLE}`);
    const url = (role: string) => `postgres://${role}@127.0.0.1:${pg.port}/${name}`;
    await applyFixture(url(SUPERUSER));
    const first = fromPostgres(postgres(url(APP_ROLE), { max: 1, onnotice: () => {} }));
    const second = fromPostgres(postgres(url(APP_ROLE), { max: 1, onnotice: () => {} }));
    try {
      const [a, b] = await Promise.all([migrate(first), migrate(second)]);
      const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
      expect([...a, ...b].sort()).toEqual(files);
      expect(a.filter((f) => b.includes(f))).toEqual([]);
    } finally {
      await first.close();
      await second.close();
      await admin.unsafe(`drop database ${name} with (force)`);
    }
  });

  it("the app connects as a role that is not a superuser, and withUser runs as authenticated with the caller's claims", async () => {
    const [who] = await db.transaction((tx) =>
      tx.query<{ current_user: string; rolsuper: boolean }>(
        "select current_user, (select rolsuper from pg_roles where rolname = current_user) as rolsuper",
      ),
    );
    expect(who).toEqual({ current_user: "postgres", rolsuper: false });

    const [inside] = await withUser(USER_A, (tx) =>
      tx.query<{ current_user: string; session_user: string; uid: string; role: string }>(
        "select current_user, session_user, auth.uid()::text as uid, auth.role() as role",
      ),
    );
    expect(inside).toEqual({ current_user: "authenticated", session_user: "postgres", uid: USER_A, role: "authenticated" });

    // `set local`: the role and claims end with the transaction, so a pooled connection
    // never carries one caller's identity into the next request.
    for (let i = 0; i < 8; i++) {
      const [after] = await db.transaction((tx) =>
        tx.query<{ current_user: string; uid: string | null }>("select current_user, auth.uid()::text as uid"),
      );
      expect(after).toEqual({ current_user: "postgres", uid: null });
    }
  });

  it("every table in schema public has row-level security, and each has a seeded row of A", async () => {
    const tables = await admin<{ relname: string; relrowsecurity: boolean }[]>`
      select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`;
    expect(tables.filter((t) => !t.relrowsecurity).map((t) => t.relname)).toEqual([]);
    // Owned by the app role, so RLS is checked below as roles that own nothing.
    const owners = await admin<{ owner: string }[]>`
      select distinct pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'`;
    expect(owners.map((o) => o.owner)).toEqual(["postgres"]);
    const withUserId = tables.map((t) => t.relname).filter((t) => t !== "threadkeeper_migrations");
    expect(withUserId.sort()).toEqual(Object.keys(SEEDS).sort());
    await withUser(USER_A, async (tx) => {
      for (const table of Object.keys(SEEDS)) {
        expect(await count(tx, `select count(*) as n from public.${table}`), table).toBeGreaterThan(0);
        expect(await count(tx, `select count(*) as n from public.${table} where user_id <> $1`, [USER_A]), table).toBe(0);
      }
    });
  });

  it.each(Object.keys(SEEDS))("user B cannot read, update or delete A's rows in %s, nor insert rows as A", async (table) => {
    const before = await withUser(USER_A, (tx) => count(tx, `select count(*) as n from public.${table}`));
    // No user filter in these statements: row-level security alone must hold.
    expect(await withUser(USER_B, (tx) => count(tx, `select count(*) as n from public.${table}`))).toBe(0);
    const writes: [string, unknown[]][] = [
      [`update public.${table} set user_id = user_id returning 1`, []],
      [`update public.${table} set user_id = $1 returning 1`, [USER_B]],
      [`delete from public.${table} returning 1`, []],
    ];
    for (const [sql, params] of writes) {
      // Tables no user may write refuse outright; the others find nothing of A's to change.
      if (READ_ONLY.has(table)) expect(await sqlState(withUser(USER_B, (tx) => tx.query(sql, params)))).toBe("42501");
      else expect(await withUser(USER_B, (tx) => tx.query(sql, params))).toEqual([]);
    }

    // A copy of A's row under a new id, claiming to be A's: refused by the policy's check.
    const original = rowsOfA.get(table) ?? {};
    const row = "id" in original ? { ...original, id: freshId(original.id) } : original;
    const columns = await admin<{ attname: string }[]>`
      select a.attname from pg_attribute a
      where a.attrelid = ${`public.${table}`}::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`;
    const list = columns.map((c) => `"${c.attname}"`).join(", ");
    const insertAsA = (tx: Tx) =>
      tx.query(`insert into public.${table} (${list}) select ${list} from jsonb_populate_record(null::public.${table}, $1::jsonb)`, [row]);
    expect(await sqlState(withUser(USER_B, insertAsA))).toBe("42501");
    expect(await sqlState(asAnon(db, insertAsA))).toBe("42501");

    // Nothing of A's changed.
    expect(await withUser(USER_A, (tx) => count(tx, `select count(*) as n from public.${table}`))).toBe(before);
    expect(await withUser(USER_A, (tx) => count(tx, `select count(*) as n from public.${table} where user_id = $1`, [USER_A]))).toBe(
      before,
    );
  });

  it("a call recorded as the user reaches the usage rollups through their triggers, under RLS", async () => {
    const rows = await withUser(USER_A, (tx) =>
      tx.query<{ m: number; s: number }>(
        `select (select sum(requests) from llm_usage_day_models where day = (now() at time zone 'UTC')::date)::int as m,
           (select sum(requests) from llm_usage_day_sessions where day = (now() at time zone 'UTC')::date)::int as s`,
      ),
    );
    expect(rows).toEqual([{ m: 1, s: 1 }]);
  });

  it("a user reads their usage rollups but cannot write them, so cannot lower today's tokens under the budget", async () => {
    const today = "(now() at time zone 'UTC')::date";
    for (const table of USAGE_ROLLUPS) {
      expect(await sqlState(withUser(USER_A, (tx) => tx.query(`update ${table} set input_tokens = 0`))), table).toBe("42501");
      expect(await sqlState(withUser(USER_A, (tx) => tx.query(`delete from ${table}`))), table).toBe("42501");
      expect(
        await sqlState(withUser(USER_A, (tx) => tx.query(`insert into ${table} (day, requests) values (${today} - 1, 1)`))),
        table,
      ).toBe("42501");
    }
    const tokens = await withUser(USER_A, (tx) =>
      count(tx, `select sum(input_tokens) as n from llm_usage_daily where day = ${today}`),
    );
    expect(tokens).toBe(100);
  });

  it("anon, which Supabase grants every table to, sees no row at all", async () => {
    await asAnon(db, async (tx) => {
      for (const table of Object.keys(SEEDS)) {
        expect(await count(tx, `select count(*) as n from public.${table}`), table).toBe(0);
      }
    });
  });

  it("A cannot hand a row to B, and the history functions show B nothing of A's sessions", async () => {
    expect(
      await sqlState(withUser(USER_A, (tx) => tx.query("update sessions set user_id = $1 where id = $2", [USER_B, seededIds.session]))),
    ).toBe("42501");
    await withUser(USER_B, async (tx) => {
      expect(await count(tx, "select count(*) as n from session_messages($1)", [seededIds.session])).toBe(0);
      expect(await count(tx, "select count(*) as n from session_messages($1)", [seededIds.fork])).toBe(0);
      expect(await count(tx, "select count(*) as n from session_protected_turns($1)", [seededIds.fork])).toBe(0);
    });
    await withUser(USER_A, async (tx) => {
      // The fork inherits seq 1 from its source, by reference.
      expect(await count(tx, "select count(*) as n from session_messages($1)", [seededIds.fork])).toBe(1);
    });
  });

  it("B's own rows work as usual beside A's", async () => {
    const id = randomUUID();
    await withUser(USER_B, (tx) => tx.query("insert into sessions (id, model) values ($1, 'claude-haiku-4-5')", [id]));
    const mine = await withUser(USER_B, (tx) => tx.query<{ id: string; user_id: string }>("select id, user_id from sessions"));
    expect(mine).toEqual([{ id, user_id: USER_B }]);
    // The app role itself bypasses RLS (as Supabase's postgres does): withUser's role switch is what protects.
    const all = await db.transaction((tx) => count(tx, "select count(*) as n from sessions where user_id = any($1::uuid[])", [[USER_A, USER_B]]));
    expect(all).toBe(3);
  });

  describe("a row may point only at its own user's rows", () => {
    // User C owns a full set of rows of its own and tries to point them (or copies of them) at A's.
    const USER_C = randomUUID();
    const seededC: Seeded = { project: randomUUID(), session: randomUUID(), fork: randomUUID(), message: randomUUID(), memory: randomUUID(), webhook: randomUUID(), file: randomUUID() };
    const rowsOfC = new Map<string, Record<string, unknown>>();
    /** C's reply still streaming: the one message whose session_id the append-only trigger lets change. */
    const streamingOfC = randomUUID();

    beforeAll(async () => {
      await admin`insert into auth.users (id, email, aud, role) values (${USER_C}, 'c@example.test', 'authenticated', 'authenticated')`;
      await withUser(USER_C, async (tx) => {
        for (const seed of Object.values(SEEDS)) await seed(tx, seededC);
        await tx.query(
          `insert into messages (id, session_id, seq, turn_seq, role, content, text, status) values ($1, $2, 2, 1, 'assistant', '[]', '', 'streaming')`,
          [streamingOfC, seededC.session],
        );
        for (const table of Object.keys(SEEDS)) {
          const [row] = await tx.query<{ r: Record<string, unknown> }>(`select to_jsonb(t) as r from public.${table} t limit 1`);
          rowsOfC.set(table, row.r);
        }
      });
    });

    it("the catalog's foreign keys between user-owned tables are exactly the listed ones, each a key carrying the user or with restrictive insert and update policies", async () => {
      const fks = await admin<{ tbl: string; col: string; parent: string; cols: number }[]>`
        select c.conrelid::regclass::text as tbl, a.attname as col, c.confrelid::regclass::text as parent, array_length(c.conkey, 1) as cols
        from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace
          and (select relnamespace from pg_class where oid = c.confrelid) = 'public'::regnamespace
        order by 1, 2`;
      // Sorted here: the database's collation may order "file_uses" and "files" either way.
      expect(fks.map((f) => [f.tbl, f.col, f.parent]).sort()).toEqual(PARENT_REFS.filter(([t, c]) => !UNKEYED.has(`${t}.${c}`)).sort());
      // The composite ones are (column, user_id) -> parent (id, user_id); the integration suite checks their columns.
      expect(fks.filter((f) => f.cols > 1).map((f) => `${f.tbl}.${f.col}`)).toEqual([...KEYED]);
      const policies = await admin<{ tablename: string; policyname: string; permissive: string; cmd: string; roles: string[] }[]>`
        select tablename, policyname, permissive, cmd, roles::text[] as roles from pg_policies
        where schemaname = 'public' and permissive = 'RESTRICTIVE' order by tablename, policyname`;
      for (const table of new Set(PARENT_REFS.filter(([t, c]) => !KEYED.has(`${t}.${c}`)).map(([t]) => t))) {
        expect(policies.filter((p) => p.tablename === table).map((p) => [p.policyname, p.cmd, p.roles])).toEqual([
          [`${table}_parents_insert`, "INSERT", ["public"]],
          [`${table}_parents_update`, "UPDATE", ["public"]],
        ]);
      }
      expect(policies.filter((p) => p.tablename === "messages")).toEqual([]);
    });

    it.each(PARENT_REFS)("C cannot insert or update a row of %s whose %s is A's (%s)", async (table, column, parent) => {
      const parentOfA = rowsOfA.get(parent)?.id;
      expect(typeof parentOfA).toBe("string");
      const countsBefore = await Promise.all(
        [USER_A, USER_C].map((u) => withUser(u, (tx) => count(tx, `select count(*) as n from public.${table}`))),
      );

      // A copy of C's own row, C's user_id and all, but pointing at A's row.
      const own = rowsOfC.get(table) ?? {};
      // (A message also takes a seq A's session does not hold, so only the reference can refuse it.)
      const free = table === "messages" ? { seq: 1_000_000 } : {};
      const row = { ...own, ...("id" in own ? { id: freshId(own.id) } : {}), ...free, [column]: parentOfA };
      const columns = await admin<{ attname: string }[]>`
        select a.attname from pg_attribute a
        where a.attrelid = ${`public.${table}`}::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`;
      const list = columns.map((c) => `"${c.attname}"`).join(", ");
      const inserted = await failure(
        withUser(USER_C, (tx) =>
          tx.query(`insert into public.${table} (${list}) select ${list} from jsonb_populate_record(null::public.${table}, $1::jsonb)`, [row]),
        ),
      );
      // A composite key to the parent's (id, user_id) refuses it itself; elsewhere the restrictive policy does.
      const keyed = KEYED.has(`${table}.${column}`);
      expect(inserted?.code, inserted?.message).toBe(keyed ? "23503" : "42501");
      expect(inserted?.message).toContain(keyed ? "violates foreign key constraint" : `row-level security policy "${table}_parents_insert"`);

      // One of C's own rows re-pointed at A's row; no user filter, RLS alone decides.
      const which = table === "messages" ? `where id = '${streamingOfC}'` : "";
      const updated = await failure(
        withUser(USER_C, (tx) => tx.query(`update public.${table} set "${column}" = $1${table === "messages" ? ", seq = 1000000" : ""} ${which}`, [parentOfA])),
      );
      expect(updated?.code, updated?.message).toBe(keyed ? "23503" : "42501");
      expect(updated?.message).toContain(keyed ? "violates foreign key constraint" : `row-level security policy "${table}_parents_update"`);

      const countsAfter = await Promise.all(
        [USER_A, USER_C].map((u) => withUser(u, (tx) => count(tx, `select count(*) as n from public.${table}`))),
      );
      expect(countsAfter).toEqual(countsBefore);
    });

    it("on one pooled connection, the ownership checks follow each transaction's caller", async () => {
      // The checks are PL/pgSQL functions whose plans PostgreSQL caches per connection: one
      // connection serving A, then C, then A again must judge each by its own claims.
      const one = fromPostgres(postgres(readyPg().appUrl, { max: 1, onnotice: () => {} }));
      const as = <T>(user: string, fn: (tx: Tx) => Promise<T>) =>
        one.transaction(async (tx) => {
          await tx.query("select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)", [
            JSON.stringify({ sub: user, role: "authenticated" }),
            user,
          ]);
          await tx.query("set local role authenticated");
          return fn(tx);
        });
      const checkpointInto = (session: string) => (tx: Tx) =>
        tx.query(
          `insert into session_checkpoints (session_id, trigger, through_seq, through_turn, window_start_turn, token_count)
           values ($1, 'manual', 1, 1, 1, 10) returning id`,
          [session],
        );
      const rollBack = new Error("roll back");
      const allowed = (user: string, session: string) =>
        as(user, async (tx) => {
          await checkpointInto(session)(tx);
          throw rollBack;
        }).catch((err: unknown) => {
          if (err !== rollBack) throw err;
        });
      try {
        for (let i = 0; i < 3; i++) {
          await allowed(USER_A, seededIds.session);
          expect((await failure(as(USER_C, checkpointInto(seededIds.session))))?.code).toBe("42501");
          await allowed(USER_C, seededC.session);
          expect((await failure(as(USER_A, checkpointInto(seededC.session))))?.code).toBe("42501");
        }
      } finally {
        await one.close();
      }
    });
  });
});
