-- Checkpoints (pointers into the append-only history), projects, forks, titles, and
-- full-text search for the session picker.

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  created_at timestamptz not null default now(),
  unique (user_id, name)
);

alter table public.sessions
  add column project_id uuid references public.projects (id) on delete set null,
  add column parent_session_id uuid references public.sessions (id) on delete set null,
  add column forked_from_checkpoint_id uuid,
  add column title_source text not null default 'default' check (title_source in ('default', 'heuristic', 'llm', 'user')),
  add column recovery_dismissed_at timestamptz,
  add column last_checkpoint_at timestamptz,
  add column last_checkpoint_seq integer not null default 0,
  add column last_message_preview text;
create index sessions_user_project_idx on public.sessions (user_id, project_id, updated_at desc);

create table public.session_checkpoints (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.sessions (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  label text check (length(label) <= 200),
  trigger text not null check (trigger in ('auto', 'manual', 'pre_compaction')),
  auto_tags text[] not null default '{}',
  -- A pointer, not a copy: messages are immutable, so these restore the context exactly.
  through_seq integer not null,
  through_turn integer not null,
  window_start_turn integer not null,
  summary_id uuid references public.compaction_logs (id) on delete set null,
  summary_text text,
  summary_tokens integer not null default 0,
  summary_through_turn integer not null default 0,
  token_count integer not null,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index session_checkpoints_session_idx on public.session_checkpoints (session_id, created_at desc);
create index session_checkpoints_user_idx on public.session_checkpoints (user_id, created_at desc);
create index session_checkpoints_tags_idx on public.session_checkpoints using gin (auto_tags);

alter table public.sessions add constraint sessions_forked_from_fk
  foreign key (forked_from_checkpoint_id) references public.session_checkpoints (id) on delete set null;

-- Keyword search over what was said, for the session picker. Kept by a trigger rather than
-- a generated column so that a fork can copy its parent's vectors instead of recomputing
-- them (to_tsvector dominated the cost of forking a long session).
alter table public.messages add column search tsvector;
create function public.messages_search_vector() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' and new.search is not null then
    return new;
  end if;
  if tg_op = 'INSERT' or new.text is distinct from old.text then
    new.search := to_tsvector('english', left(new.text, 100000));
  end if;
  return new;
end $$;
create trigger messages_search_vector before insert or update on public.messages
  for each row execute function public.messages_search_vector();
create index messages_search_idx on public.messages using gin (search);
alter table public.sessions
  add column search tsvector generated always as (to_tsvector('english', title)) stored;
create index sessions_search_idx on public.sessions using gin (search);

alter table public.projects enable row level security;
alter table public.session_checkpoints enable row level security;
create policy projects_owner on public.projects for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy session_checkpoints_owner on public.session_checkpoints for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.projects, public.session_checkpoints to authenticated;
