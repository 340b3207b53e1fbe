-- Files in the conversation (issue 31). A file row is one upload; its bytes live in the file
-- store (lib/storage: a folder in the embedded default, Supabase Storage in production) under
-- (user_id, sha256), so the same bytes from one user are stored once whatever their rows.
create table public.files (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- The session it was attached to; a session's deletion hands a file still used by a fork to
  -- that fork (lib/operations/files.ts) and deletes the rest.
  session_id uuid references public.sessions (id) on delete set null,
  name text not null,
  media_type text not null,
  kind text not null check (kind in ('image', 'pdf', 'text')),
  size bigint not null check (size >= 0),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  tokens integer not null default 0,
  pages integer,
  width integer,
  height integer,
  extraction text not null default 'none' check (extraction in ('pending', 'done', 'failed', 'none')),
  about text,
  created_at timestamptz not null default now()
);
create index files_user_sha_idx on public.files (user_id, sha256);
create index files_session_idx on public.files (session_id);
create index files_user_created_idx on public.files (user_id, created_at desc);

-- A file's text by page (a text file is one page per 200 lines): what open_file reads and
-- history search finds. Written once its text has been read.
create table public.file_pages (
  file_id uuid not null references public.files (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  page integer not null,
  text text not null,
  search tsvector generated always as (to_tsvector('english', left(text, 100000))) stored,
  primary key (file_id, page)
);
create index file_pages_search_idx on public.file_pages using gin (search);
create index file_pages_user_idx on public.file_pages (user_id);

-- Which session's message (by seq and turn) carries which file: what the window knows a file
-- costs while its turn is in view, what becomes a one-line reference once it has slid out,
-- and what keeps a file alive when its session is deleted but a fork still uses it. A fork
-- inherits its source's uses up to the fork point.
create table public.file_uses (
  session_id uuid not null references public.sessions (id) on delete cascade,
  file_id uuid not null references public.files (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  seq integer not null,
  turn_seq integer not null,
  tokens integer not null,
  by_reference boolean not null default false,
  primary key (session_id, seq, file_id)
);
create index file_uses_file_idx on public.file_uses (file_id);

alter table public.files enable row level security;
alter table public.file_pages enable row level security;
alter table public.file_uses enable row level security;
create policy files_owner on public.files for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy file_pages_owner on public.file_pages for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy file_uses_owner on public.file_uses for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.files, public.file_pages, public.file_uses to authenticated;

-- The parents a row points at are the caller's too (20261123000001_rls_parent_ownership.sql).
create function public.owns_file(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.files t where t.id = target and t.user_id = auth.uid());
end $$;

create policy files_parents_insert on public.files as restrictive for insert to public
  with check (session_id is null or public.owns_session(session_id));
create policy files_parents_update on public.files as restrictive for update to public
  with check (session_id is null or public.owns_session(session_id));
create policy file_pages_parents_insert on public.file_pages as restrictive for insert to public
  with check (public.owns_file(file_id));
create policy file_pages_parents_update on public.file_pages as restrictive for update to public
  with check (public.owns_file(file_id));
create policy file_uses_parents_insert on public.file_uses as restrictive for insert to public
  with check (public.owns_session(session_id) and public.owns_file(file_id));
create policy file_uses_parents_update on public.file_uses as restrictive for update to public
  with check (public.owns_session(session_id) and public.owns_file(file_id));

-- How many file uses the session has: a session without files reads nothing more for a request.
alter table public.sessions add column file_count integer not null default 0;
