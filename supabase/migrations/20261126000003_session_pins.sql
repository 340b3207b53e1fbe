-- A session can be pinned to the top of the list (and unpinned); archived sessions already
-- carry archived_at, which unarchiving clears.
alter table public.sessions add column pinned_at timestamptz;
