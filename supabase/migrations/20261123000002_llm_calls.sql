-- Every billed call to the Anthropic API, with its usage and cost: the chat's replies, the
-- summarizer and titles (token counting is free and not recorded). The dashboard reads from
-- here; the token bar reads the session's running totals kept beside it.
--
-- session_id is not a foreign key: spending outlives the session it was spent on, so
-- deleting a session keeps its calls (the dashboard shows them as a deleted session).
-- cost_usd is computed from the price table when the call is recorded, so a later price
-- change never rewrites history.

create table public.llm_calls (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  session_id uuid,
  -- The turn the call served, for the turn-by-turn view of a session.
  turn_seq integer,
  kind text not null check (kind in ('chat', 'summary', 'title')),
  model text not null,
  input_tokens integer not null check (input_tokens >= 0),
  output_tokens integer not null check (output_tokens >= 0),
  cache_creation_input_tokens integer not null default 0 check (cache_creation_input_tokens >= 0),
  cache_read_input_tokens integer not null default 0 check (cache_read_input_tokens >= 0),
  cost_usd double precision not null check (cost_usd >= 0),
  -- Chat calls: what we estimated the request at (calibrated) before sending it, the window's
  -- first turn and the model's capacity, so fill and calibration error can be drawn per turn.
  estimated_input_tokens integer,
  window_start_turn integer,
  capacity_tokens integer,
  cache_breakpoints smallint not null default 0,
  created_at timestamptz not null default now()
);
create index llm_calls_user_time_idx on public.llm_calls (user_id, created_at);
create index llm_calls_session_idx on public.llm_calls (session_id, created_at);

-- One row per user, UTC day, session, model and kind, kept in step with llm_calls by the
-- same transaction that records a call, so the dashboard's totals read a few rows per day
-- instead of every call.
create table public.llm_usage_daily (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  day date not null,
  session_id uuid,
  model text not null,
  kind text not null,
  requests integer not null default 0,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cache_creation_input_tokens bigint not null default 0,
  cache_read_input_tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  -- session_id is null for calls outside a session; those share one row per day too.
  unique nulls not distinct (user_id, day, session_id, model, kind)
);

-- The session's spending so far, updated with each recorded call: the token bar's tooltip
-- reads one row instead of summing the session's calls.
alter table public.sessions
  add column cost_usd double precision not null default 0,
  add column billed_input_tokens bigint not null default 0,
  add column cache_read_tokens bigint not null default 0;

create index compaction_logs_user_time_idx on public.compaction_logs (user_id, created_at);

alter table public.llm_calls enable row level security;
alter table public.llm_usage_daily enable row level security;
-- Append-only through the app: a user reads and adds their own calls. With no update or
-- delete policy, an UPDATE or DELETE of llm_calls matches no row for anyone but the owner role.
create policy llm_calls_owner_select on public.llm_calls for select to authenticated using (user_id = auth.uid());
create policy llm_calls_owner_insert on public.llm_calls for insert to authenticated with check (user_id = auth.uid());
create policy llm_usage_daily_owner on public.llm_usage_daily for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.llm_calls, public.llm_usage_daily to authenticated;
