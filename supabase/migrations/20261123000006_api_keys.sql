-- API keys for integrations, and the request counters that rate-limit every caller.
--
-- A key's secret is shown once and never stored: only its SHA-256 (hex) and the visible
-- prefix that lets a person tell keys apart. Requests find their key by hash on the app's own
-- role, before any user is known; everything after runs as the key's owner, like any request.
-- Keys are revoked, never deleted, so the list keeps their history.
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  -- 'tk_live_' and the first random characters: shown in lists, useless for signing in.
  prefix text not null,
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  scopes text[] not null check (cardinality(scopes) > 0 and scopes <@ array['read', 'write', 'admin']),
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  -- Written at most once a minute per key, so a busy key does not write on every request.
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_user_idx on public.api_keys (user_id, created_at);

-- What identifies a key and what it may do never changes, and a revoked key stays revoked:
-- through Supabase's Data API a signed-in user could otherwise re-enable a key they revoked
-- because it leaked. Only last_used_at (and revoking) may change.
create function public.api_keys_guard() returns trigger language plpgsql as $$
begin
  if new.user_id is distinct from old.user_id or new.key_hash is distinct from old.key_hash
     or new.prefix is distinct from old.prefix or new.scopes is distinct from old.scopes
     or new.created_at is distinct from old.created_at or new.expires_at is distinct from old.expires_at
     or new.name is distinct from old.name then
    raise exception 'api_keys: only last_used_at and revoked_at can change' using errcode = '42501';
  end if;
  if old.revoked_at is not null and new.revoked_at is distinct from old.revoked_at then
    raise exception 'api_keys: a revoked key stays revoked' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger api_keys_guard before update on public.api_keys
  for each row execute function public.api_keys_guard();

-- One row per rate-limit bucket: a user's own requests (key_id null: browser, access token,
-- local mode) or one API key's, each for requests and for sends. The generic cell rate
-- algorithm (GCRA) keeps a single timestamp per bucket: `refilled_at`, when the bucket will be
-- full again. A request costs 60 s / limit and is allowed while refilled_at - now stays within
-- 60 s: a token bucket holding `limit` requests that refills at `limit` per minute, so a client
-- never sustains more than the limit and an idle one may burst up to it. One upsert per
-- bucket, serialized on its row, so it holds across any number of app instances. key_id is not
-- a foreign key: keys are only revoked, never deleted, and this row is written per request.
create table public.rate_limits (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  key_id uuid,
  bucket text not null check (bucket in ('requests', 'sends')),
  refilled_at timestamptz not null,
  unique nulls not distinct (user_id, key_id, bucket)
);

alter table public.api_keys enable row level security;
alter table public.rate_limits enable row level security;
-- A user reads, creates and revokes their own keys (the guard above limits what an update may
-- change); no one deletes one through the app.
create policy api_keys_owner_select on public.api_keys for select to authenticated using (user_id = auth.uid());
create policy api_keys_owner_insert on public.api_keys for insert to authenticated with check (user_id = auth.uid());
create policy api_keys_owner_update on public.api_keys for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
-- Counters are the app's: a user may read theirs, and inserting one only starts a bucket (the
-- unique key refuses a second), but no update or delete policy lets anyone reset a bucket.
create policy rate_limits_owner_select on public.rate_limits for select to authenticated using (user_id = auth.uid());
create policy rate_limits_owner_insert on public.rate_limits for insert to authenticated with check (user_id = auth.uid());
grant select, insert, update, delete on public.api_keys, public.rate_limits to authenticated;
