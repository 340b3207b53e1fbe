-- Issue 34: the sessions an import made can be archived into memories in one step. Each
-- imported session names its import, and the import's row carries that archiving's progress
-- (one session at a time, in the background, resumed after a restart: a session already
-- archived has archived_at set and is passed over).
alter table public.sessions add column import_id uuid references public.imports (id) on delete set null;
create index sessions_import_idx on public.sessions (import_id) where import_id is not null;

alter table public.imports
  add column archive_status text check (archive_status is null or archive_status in ('running', 'done', 'failed', 'cancelled')),
  add column archive_total integer not null default 0 check (archive_total >= 0),
  add column archived integer not null default 0 check (archived >= 0),
  add column archive_failed integer not null default 0 check (archive_failed >= 0),
  add column archive_updated_at timestamptz;
