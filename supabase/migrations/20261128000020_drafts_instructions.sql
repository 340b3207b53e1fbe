-- Issue 33: drafts per session, and custom instructions.
--
-- 1. What was typed in a session's composer and not yet sent, with the files already uploaded
--    for it, so a reload or another device finds it (lib/db/drafts.ts). A row of its own, not a
--    column of sessions: a draft is saved while a reply streams, and the turn holds the session's
--    row; one row per session, gone with the session.
create table public.session_drafts (
  session_id uuid primary key references public.sessions (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  text text not null default '' check (char_length(text) <= 200000),
  -- [{ "id": file uuid, "by_reference": bool }]: only files already uploaded.
  attachments jsonb not null default '[]' check (jsonb_typeof(attachments) = 'array'),
  updated_at timestamptz not null default now()
);
create index session_drafts_user_idx on public.session_drafts (user_id);
alter table public.session_drafts enable row level security;
create policy session_drafts_owner on public.session_drafts for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.session_drafts to authenticated;
-- The session a draft belongs to is the caller's too (20261123000001_rls_parent_ownership.sql).
create policy session_drafts_parents_insert on public.session_drafts as restrictive for insert to public
  with check (public.owns_session(session_id));
create policy session_drafts_parents_update on public.session_drafts as restrictive for update to public
  with check (public.owns_session(session_id));

-- 2. The account's custom instructions (what Claude should know about the user and how to
--    answer), copied into each session the app creates, beside its system prompt: a session
--    keeps the instructions it started with, so editing them never breaks the prompt cache of a
--    conversation under way. A drop-in caller's session has none (its caller's `system` rules).
alter table public.user_settings add column custom_instructions text not null default ''
  check (char_length(custom_instructions) <= 20000);
alter table public.sessions add column instructions text not null default ''
  check (char_length(instructions) <= 20000);
