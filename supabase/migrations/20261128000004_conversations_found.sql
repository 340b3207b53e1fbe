-- Conversations of API clients that send no threadkeeper-session-id are still found
-- (lib/turn/find-session.ts): by the tool calls Threadkeeper last returned to the client, by the
-- digest of the conversation the client last saw (sessions.client_view_*), or by a well-known
-- conversation header of the client (Claude Code's X-Claude-Code-Session-Id, …). Each lookup is
-- one index probe within the caller's own sessions.

-- The ids of the tool calls in the last answer the client got: a tool_result answering one
-- continues this session.
alter table public.sessions add column client_tool_ids text[];
create index sessions_client_tool_ids_idx on public.sessions using gin (client_tool_ids) where client_tool_ids is not null;
create index sessions_client_view_idx on public.sessions (user_id, client_view_digest) where client_view_digest is not null;

-- A client's own conversation id (with the header it came in) → the session holding it.
create table public.client_conversations (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  conversation text not null check (char_length(conversation) between 1 and 300),
  session_id uuid not null references public.sessions (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, conversation)
);
create index client_conversations_session_idx on public.client_conversations (session_id);
alter table public.client_conversations enable row level security;
create policy client_conversations_owner on public.client_conversations for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.client_conversations to authenticated;
-- The session a row points at is the caller's too (20261123000001_rls_parent_ownership.sql).
create policy client_conversations_parents_insert on public.client_conversations as restrictive for insert to public
  with check (public.owns_session(session_id));
create policy client_conversations_parents_update on public.client_conversations as restrictive for update to public
  with check (public.owns_session(session_id));

-- Which of Threadkeeper's own tools a key's requests offer Claude ('recall', 'canvas'); null:
-- the session's own settings (recall only for a session the key creates). Changing it is
-- allowed: api_keys_guard fixes only what identifies a key and what it may do.
alter table public.api_keys add column tools text[] check (tools is null or tools <@ array['recall', 'canvas']);
