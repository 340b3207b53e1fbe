-- The spine: user settings, sessions, append-only messages, per-model token calibration.
-- Supabase provides the auth schema, auth.users, auth.uid() and the authenticated role;
-- the embedded database gets an equivalent shim from lib/db/embedded-auth.sql.

create table public.user_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  compaction_threshold real check (compaction_threshold between 0.5 and 0.95),
  output_reservation real check (output_reservation between 0.05 and 0.5),
  safety_buffer real check (safety_buffer between 0 and 0.3),
  model text,
  updated_at timestamptz not null default now()
);

create table public.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null default 'New session',
  model text not null,
  -- Per-session overrides of user_settings (compaction_threshold, output_reservation, ...).
  settings jsonb not null default '{}'::jsonb,
  system_prompt text not null default '',
  system_tokens integer not null default 0,
  -- Counters kept on the row so that every hot path is O(1) in history length.
  next_seq integer not null default 1,
  last_turn_seq integer not null default 0,
  message_count integer not null default 0,
  -- Sliding window: turns >= window_start_turn are in Claude's view, plus pinned turns
  -- (the first turn and protected turns) before it.
  window_start_turn integer not null default 1,
  tail_tokens integer not null default 0,
  pinned_tokens integer not null default 0,
  -- The last request the API measured: its input tokens and our raw estimate of it.
  measured_tokens integer,
  measured_raw_tokens integer,
  measured_at timestamptz,
  -- Turn lease: one turn at a time per session, across app instances.
  turn_lock_id uuid,
  turn_lock_until timestamptz,
  canvas jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_message_at timestamptz
);
create index sessions_user_recent_idx on public.sessions (user_id, updated_at desc);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.sessions (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  seq integer not null,
  turn_seq integer not null,
  role text not null check (role in ('user', 'assistant')),
  content jsonb not null,
  text text not null default '',
  token_count integer not null default 0,
  protected boolean not null default false,
  status text not null default 'complete' check (status in ('streaming', 'complete', 'interrupted')),
  idempotency_key text,
  model text,
  usage jsonb,
  stop_reason text,
  error jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (session_id, seq),
  unique (session_id, idempotency_key)
);
create index messages_session_turn_idx on public.messages (session_id, turn_seq);
create index messages_session_protected_idx on public.messages (session_id, turn_seq) where protected;

-- Messages are append-only: once a message is no longer streaming, only its protected
-- flag may change. Compaction and checkpoints point into this table and rely on it.
create function public.messages_append_only() returns trigger language plpgsql as $$
begin
  if old.status <> 'streaming' and (
       new.content is distinct from old.content or new.text is distinct from old.text
    or new.seq <> old.seq or new.turn_seq <> old.turn_seq or new.role <> old.role
    or new.session_id <> old.session_id or new.user_id <> old.user_id
    or new.status <> old.status or new.token_count <> old.token_count) then
    raise exception 'messages are append-only (message %)', old.id using errcode = 'check_violation';
  end if;
  new.updated_at := now();
  return new;
end $$;
create trigger messages_append_only before update on public.messages
  for each row execute function public.messages_append_only();

create table public.model_calibrations (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  model text not null,
  factor double precision not null,
  samples integer not null default 0,
  updated_at timestamptz not null default now(),
  primary key (user_id, model)
);

alter table public.user_settings enable row level security;
alter table public.sessions enable row level security;
alter table public.messages enable row level security;
alter table public.model_calibrations enable row level security;

create policy user_settings_owner on public.user_settings for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy sessions_owner on public.sessions for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy messages_owner on public.messages for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy model_calibrations_owner on public.model_calibrations for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

grant select, insert, update, delete on public.user_settings, public.sessions, public.messages,
  public.model_calibrations to authenticated;
