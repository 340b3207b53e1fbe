-- Conversations brought from elsewhere (ChatGPT, Claude.ai, Claude Code, another Threadkeeper):
-- each import is a row with its progress and its per-conversation errors, and each imported
-- session remembers where it came from, so importing the same file again adds nothing.

create table public.imports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  status text not null default 'running' check (status in ('running', 'done', 'failed', 'cancelled')),
  file_name text check (file_name is null or char_length(file_name) <= 300),
  format text check (format is null or format in ('chatgpt', 'claude', 'claude-code', 'threadkeeper')),
  bytes bigint not null default 0 check (bytes >= 0),
  bytes_read bigint not null default 0 check (bytes_read >= 0),
  imported integer not null default 0,
  skipped integer not null default 0,
  failed integer not null default 0,
  -- [{ source_id, title, reason }], at most a few hundred kept (the count is in `failed`).
  errors jsonb not null default '[]'::jsonb,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index imports_user_idx on public.imports (user_id, created_at desc);
alter table public.imports enable row level security;
create policy imports_owner on public.imports for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.imports to authenticated;

alter table public.sessions
  add column import_format text check (import_format is null or import_format in ('chatgpt', 'claude', 'claude-code', 'threadkeeper')),
  add column import_source_id text check (import_source_id is null or char_length(import_source_id) <= 300);
-- One session per source conversation and user: a repeated import finds it and skips.
create unique index sessions_import_source_idx on public.sessions (user_id, import_format, import_source_id) where import_source_id is not null;
