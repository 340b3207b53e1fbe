-- What a Supabase project's Postgres provides before our migrations run, reduced to the parts
-- the app relies on. Run as the cluster's superuser (supabase_admin, as in Supabase). The
-- embedded database gets a smaller shim (lib/db/embedded-auth.sql); this one keeps Supabase's
-- ownership and privileges, because those are what the real-PostgreSQL suite tests:
--   * `postgres` is the app's login role: NOT a superuser, BYPASSRLS (as on Supabase), owner
--     of everything the migrations create, and a member of `authenticated` so that withUser can
--     take that role (set_config('role', …, true));
--   * anon, authenticated and service_role get ALL on every table the migrations create
--     (Supabase's default privileges), so row-level security is the only thing between tenants;
--   * extensions live in schema `extensions`, found through the search_path as on Supabase.
-- Idempotent: roles are cluster-wide, and the suite applies this to more than one database.

do $$
declare r text;
begin
  foreach r in array array['anon', 'authenticated', 'service_role'] loop
    if not exists (select 1 from pg_roles where rolname = r) then
      execute format('create role %I nologin noinherit', r);
    end if;
  end loop;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'postgres') then
    create role postgres login createrole createdb bypassrls;
  end if;
end $$;
alter role service_role bypassrls;
grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;

-- PostgreSQL 15 no longer lets every role create in schema public; Supabase gives it to postgres.
grant usage, create on schema public to postgres;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on sequences to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on functions to anon, authenticated, service_role;

create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
-- pgvector is not a trusted extension: on Supabase the platform creates it; here the superuser.
create extension if not exists vector with schema extensions;
do $$ begin
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());
end $$;

-- Supabase Auth's schema (owned by supabase_auth_admin there; the superuser here).
create schema if not exists auth;
create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_anonymous boolean not null default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

-- Supabase's definitions: the JWT's claims arrive as settings, one claim or all as JSON.
create or replace function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
create or replace function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant usage on schema auth to postgres, anon, authenticated, service_role;
grant execute on function auth.uid(), auth.role(), auth.jwt() to postgres, anon, authenticated, service_role;
-- As on Supabase, postgres holds every privilege on auth.users: the migrations' keys reference it,
-- a trigger on it removes a deleted user's sessions, and local mode inserts its one user there.
grant all on auth.users to postgres;
