-- The canvas (issue 12): what Claude puts on the user's screen beside the chat.
--
-- canvas_events is its history in the session's order: each change Claude's tools or the user
-- made, with the seq of the session's last message when it happened (for a tool: its
-- tool_result message, written in the same transaction). A fork never reads its source's
-- events: a checkpoint restore replays the source's events up to the checkpoint once and writes
-- the result into the fork as one 'restore' base event, so deleting the source (which cascades
-- its events) takes nothing from the fork, and undoing a compaction never touches the canvas.
create table public.canvas_events (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.sessions (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  at_seq int not null,
  payload jsonb not null,
  source text not null check (source in ('claude', 'user', 'restore')),
  tool_use_id text,
  created_at timestamptz not null default now()
);
create index canvas_events_session_idx on public.canvas_events (session_id, id);
create index canvas_events_user_idx on public.canvas_events (user_id);

-- The current canvas on the session row, so no request replays the history: the snapshot (the
-- spine's `canvas` column, unused until now; null is the empty canvas), the id of the newest
-- event applied (what a checkpoint records, and what a client compares), and the raw tokens
-- of its system-prompt section at the session's canvas budget (the bar's "canvas" category,
-- counted like every other fixed part without reading the snapshot).
alter table public.sessions
  add column canvas_version bigint not null default 0,
  add column canvas_tokens int not null default 0;

-- The session's canvas_version when the checkpoint was saved; null for checkpoints saved before
-- the canvas existed (their canvas is the events up to their through_seq).
alter table public.session_checkpoints add column canvas_version bigint;

-- Settings: null means "the built-in default" (tools on, 5 % of capacity), like every other.
alter table public.user_settings
  add column canvas_tools boolean,
  add column canvas_budget real;

alter table public.canvas_events enable row level security;
create policy canvas_events_owner on public.canvas_events for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.canvas_events to authenticated;
grant usage on sequence public.canvas_events_id_seq to authenticated;
-- canvas_events.session_id -> sessions (see 20261123000001_rls_parent_ownership.sql).
create policy canvas_events_parents_insert on public.canvas_events as restrictive for insert to public
  with check (public.owns_session(session_id));
create policy canvas_events_parents_update on public.canvas_events as restrictive for update to public
  with check (public.owns_session(session_id));
