// supabase/seed.sql on a fresh database, the way `supabase db reset` applies it: Supabase's auth
// set-up (the suite's fixture), every migration run by the CLI and recorded in its own history
// (supabase_migrations.schema_migrations), then the seed, all as the CLI's role `postgres`. Then
// the app starts on that database: its migration runner must recognise the CLI's history and run
// nothing again, and the demo user must see the demo session (and nobody else any of it) through
// the app's own reads, under row-level security.
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/lib/contract/endpoints";
import { fromPostgres, type Database } from "@/lib/db/driver";
import { setDb, withUser } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { getStatus, messagesPage, sessionDetail } from "@/lib/operations/sessions";
import { searchMemories } from "@/lib/operations/memory";
import { applyFixture, SUPERUSER } from "./cluster";
import { APP_ROLE, pgContext, readyPg } from "./context";

const available = pgContext().available;
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const MIGRATIONS_DIR = path.join(ROOT, "supabase", "migrations");

const DEMO_USER = "de300000-0000-4000-8000-000000000001";
const DEMO_SESSION = "de300000-0000-4000-8000-000000000051";

describe.skipIf(!available)("supabase/seed.sql after the migrations, as `supabase db reset` applies it", () => {
  let admin: Sql;
  let cli: Sql;
  let db: Database;
  let name: string;
  let files: string[];

  beforeAll(async () => {
    const pg = readyPg();
    admin = postgres(pg.superuserUrl, { max: 1, onnotice: () => {} });
    name = `tk_seed_${Date.now()}`;
    await admin.unsafe(`create database ${name} owner ${APP_ROLE}`);
    const url = (role: string) => `postgres://${role}@127.0.0.1:${pg.port}/${name}`;
    await applyFixture(url(SUPERUSER));
    cli = postgres(url(APP_ROLE), { max: 1, onnotice: () => {} });
    // The CLI's history table, and each migration applied and recorded by version.
    await cli.unsafe(`create schema supabase_migrations;
      create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text)`);
    files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
    for (const file of files) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), "utf8");
      await cli.begin(async (tx) => {
        await tx.unsafe(sql);
        const [version, ...rest] = file.replace(/\.sql$/, "").split("_");
        await tx.unsafe("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [version, rest.join("_")]);
      });
    }
    await cli.unsafe(await readFile(path.join(ROOT, "supabase", "seed.sql"), "utf8"));
    db = fromPostgres(postgres(url(APP_ROLE), { max: 2, onnotice: () => {} }));
  });

  afterAll(async () => {
    setDb(undefined);
    await db?.close();
    await cli?.end({ timeout: 5 });
    if (name) await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end({ timeout: 5 });
  });

  it("the app's migration runner records the CLI's migrations without running them again", async () => {
    // Running any of them again would fail (`relation "user_settings" already exists`).
    expect(await migrate(db)).toEqual(files);
    expect(await migrate(db)).toEqual([]);
    const recorded = await cli<{ name: string }[]>`select name from public.threadkeeper_migrations order by name`;
    expect(recorded.map((r) => r.name)).toEqual(files);
  });

  it("the demo user sees the demo session, its compaction, checkpoints and memories; another user sees none of it", async () => {
    setDb(db);
    const count = (userId: string) =>
      withUser(userId, (tx) =>
        tx.query<Record<string, number>>(
          `select (select count(*)::int from sessions) as sessions, (select count(*)::int from messages) as messages,
             (select count(*)::int from compaction_logs where status = 'applied') as compactions,
             (select count(*)::int from session_checkpoints) as checkpoints, (select count(*)::int from session_memories) as memories,
             (select count(*)::int from projects) as projects`,
        ),
      );
    expect((await count(DEMO_USER))[0]).toEqual({ sessions: 1, messages: 16, compactions: 1, checkpoints: 2, memories: 3, projects: 1 });
    expect((await count(randomUUID()))[0]).toEqual({ sessions: 0, messages: 0, compactions: 0, checkpoints: 0, memories: 0, projects: 0 });
    const [user] = await cli<{ email: string }[]>`select email from auth.users where id = ${DEMO_USER}`;
    expect(user.email).toBe("demo@threadkeeper.local");
  });

  it("reads back through the app as the API would answer it: the session, its window after the compaction, its status, memory search", async () => {
    setDb(db);
    const detail = api.getSession.responses[200].json.parse(await sessionDetail(DEMO_USER, DEMO_SESSION));
    expect(detail.session.title).toBe("Moving uploads to S3 multipart");
    expect(detail.checkpoints.map((c) => c.label)).toEqual(["Uploads work end to end", "Plan agreed: 16 MiB parts"]);

    const page = api.listMessages.responses[200].json.parse(await messagesPage(DEMO_USER, DEMO_SESSION, undefined, 50));
    expect(page.messages).toHaveLength(16);
    // Turn 1 is pinned, turns 2-5 are condensed into the summary, turns 6-8 are the window.
    expect(page.messages.filter((m) => m.in_window).map((m) => m.turn_seq)).toEqual([1, 1, 6, 6, 7, 7, 8, 8]);

    const status = api.getContextStatus.responses[200].json.parse(await getStatus(DEMO_USER, DEMO_SESSION));
    expect(status.current_tokens).toBeGreaterThan(0);
    expect(status.status).toBe("normal");

    const hits = await searchMemories(DEMO_USER, "multipart ETag CORS", {}, 5);
    expect(hits[0]?.id).toBe("de300000-0000-4000-8000-000000000f01");
    expect(await searchMemories(randomUUID(), "multipart ETag CORS", {}, 5)).toEqual([]);
  });
});

/** What Supabase Auth's own schema adds to the suite's fixture, as far as the seed writes it. */
const SUPABASE_AUTH_EXTRAS = `
  create extension if not exists pgcrypto with schema extensions;
  alter table auth.users add column confirmation_token varchar(255), add column recovery_token varchar(255),
    add column email_change_token_new varchar(255), add column email_change varchar(255);
  create table auth.identities (
    provider_id text not null,
    user_id uuid not null references auth.users (id) on delete cascade,
    identity_data jsonb not null,
    provider text not null,
    last_sign_in_at timestamptz,
    created_at timestamptz,
    updated_at timestamptz,
    email text generated always as (lower(identity_data ->> 'email')) stored,
    id uuid primary key default gen_random_uuid(),
    unique (provider_id, provider)
  );
  grant select, insert on auth.identities to postgres;`;

describe.skipIf(!available)("supabase/seed.sql on Supabase's own auth schema (auth.identities, pgcrypto)", () => {
  let admin: Sql;
  let app: Sql;
  let name: string;

  beforeAll(async () => {
    const pg = readyPg();
    admin = postgres(pg.superuserUrl, { max: 1, onnotice: () => {} });
    name = `tk_seed_auth_${Date.now()}`;
    await admin.unsafe(`create database ${name} owner ${APP_ROLE}`);
    const url = (role: string) => `postgres://${role}@127.0.0.1:${pg.port}/${name}`;
    await applyFixture(url(SUPERUSER));
    const superuser = postgres(url(SUPERUSER), { max: 1, onnotice: () => {} });
    try {
      await superuser.unsafe(SUPABASE_AUTH_EXTRAS);
    } finally {
      await superuser.end({ timeout: 5 });
    }
    const db = fromPostgres(postgres(url(APP_ROLE), { max: 1, onnotice: () => {} }));
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    app = postgres(url(APP_ROLE), { max: 1, onnotice: () => {} });
    await app.unsafe(await readFile(path.join(ROOT, "supabase", "seed.sql"), "utf8"));
  });

  afterAll(async () => {
    await app?.end({ timeout: 5 });
    if (name) await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end({ timeout: 5 });
  });

  it("writes the demo user as Supabase Auth does: a bcrypt password that verifies, confirmed, with an email identity", async () => {
    const [user] = await app<{ ok: boolean; confirmed: boolean; tokens: string[]; aud: string }[]>`
      select encrypted_password = extensions.crypt('threadkeeper-demo', encrypted_password) as ok,
        email_confirmed_at is not null as confirmed, aud,
        array[confirmation_token, recovery_token, email_change_token_new, email_change] as tokens
      from auth.users where id = ${DEMO_USER}`;
    expect(user).toEqual({ ok: true, confirmed: true, aud: "authenticated", tokens: ["", "", "", ""] });
    const identities = await app<{ provider: string; email: string }[]>`select provider, email from auth.identities where user_id = ${DEMO_USER}`;
    expect(identities).toEqual([{ provider: "email", email: "demo@threadkeeper.local" }]);
    const [{ n }] = await app<{ n: number }[]>`select count(*)::int as n from public.messages where user_id = ${DEMO_USER}`;
    expect(n).toBe(16);
  });
});

