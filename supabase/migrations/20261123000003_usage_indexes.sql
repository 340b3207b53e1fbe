-- What the usage dashboard (GET /api/usage, /api/usage/summary) reads, so that a user with a
-- million recorded calls gets any range in a few milliseconds: whole UTC days come from daily
-- rollups, only the partial days at a range's edges from llm_calls itself.
--
-- llm_usage_daily (day × session × model × kind, kept by the recorder) has about a dozen rows
-- a day for a heavy user; a year of it is too many rows to sum on every page view. Two coarser
-- rollups are kept beside it by triggers: per day and model (the day and model views, the
-- totals), and per day and session (the session view, one session's figures). They count
-- compactions too (by the summary's model, null for extractive and sliding ones), so a long
-- range never reads compaction_logs; like spending, a count outlives a deleted session. All
-- three rollups carry the calibration error of chat calls (how far our estimate of the request
-- was from what the API measured), as sums from which any grouping gets its mean absolute and
-- mean signed error exactly:
--   error of one chat call = (estimated_input_tokens - measured) / measured,
--   measured = input + cache write + cache read tokens.

alter table public.llm_usage_daily
  add column calibration_calls integer not null default 0,
  add column calibration_abs_error double precision not null default 0,
  add column calibration_error double precision not null default 0;

create table public.llm_usage_day_models (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  day date not null,
  -- Null only for compactions without a summary model.
  model text,
  requests integer not null default 0,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cache_creation_input_tokens bigint not null default 0,
  cache_read_input_tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  calibration_calls integer not null default 0,
  calibration_abs_error double precision not null default 0,
  calibration_error double precision not null default 0,
  compactions integer not null default 0,
  unique nulls not distinct (user_id, day, model)
);

create table public.llm_usage_day_sessions (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  day date not null,
  -- Not a foreign key, as in llm_calls: spending outlives a deleted session. Null: calls
  -- outside any session, one row a day.
  session_id uuid,
  requests integer not null default 0,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cache_creation_input_tokens bigint not null default 0,
  cache_read_input_tokens bigint not null default 0,
  cost_usd double precision not null default 0,
  calibration_calls integer not null default 0,
  calibration_abs_error double precision not null default 0,
  calibration_error double precision not null default 0,
  compactions integer not null default 0,
  unique nulls not distinct (user_id, day, session_id)
);

alter table public.llm_usage_day_models enable row level security;
alter table public.llm_usage_day_sessions enable row level security;
-- Written by the trigger below as the caller (security invoker), so the owner may insert and
-- update their own rows, as with llm_usage_daily.
create policy llm_usage_day_models_owner on public.llm_usage_day_models for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy llm_usage_day_sessions_owner on public.llm_usage_day_sessions for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.llm_usage_day_models, public.llm_usage_day_sessions to authenticated;

-- A statement trigger over the inserted rows (not a row trigger), so a bulk insert pays once
-- per statement. Its upserts add to whatever is there: for llm_usage_daily that is the row the
-- recorder's own statement created (AFTER triggers fire when the whole statement, its upsert
-- included, has run), and it would still count right if a recorder wrote the rollup later.
create function public.llm_calls_rollups() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  with c as (
    select n.user_id, (n.created_at at time zone 'UTC')::date as day, n.session_id, n.model, n.kind, n.input_tokens,
      n.output_tokens, n.cache_creation_input_tokens, n.cache_read_input_tokens, n.cost_usd,
      case when n.kind = 'chat' and n.estimated_input_tokens is not null and m.measured > 0
        then (n.estimated_input_tokens - m.measured)::float8 / m.measured end as err
    from new_calls n
    cross join lateral (select n.input_tokens + n.cache_creation_input_tokens + n.cache_read_input_tokens as measured) m
  ), daily as (
    insert into public.llm_usage_daily as d (user_id, day, session_id, model, kind,
      calibration_calls, calibration_abs_error, calibration_error)
    select user_id, day, session_id, model, kind, count(*), sum(abs(err)), sum(err)
    from c where err is not null
    group by 1, 2, 3, 4, 5
    on conflict (user_id, day, session_id, model, kind) do update set
      calibration_calls = d.calibration_calls + excluded.calibration_calls,
      calibration_abs_error = d.calibration_abs_error + excluded.calibration_abs_error,
      calibration_error = d.calibration_error + excluded.calibration_error
  ), models as (
    insert into public.llm_usage_day_models as d (user_id, day, model, requests, input_tokens, output_tokens,
      cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error)
    select user_id, day, model, count(*), sum(input_tokens), sum(output_tokens), sum(cache_creation_input_tokens),
      sum(cache_read_input_tokens), sum(cost_usd), count(err), coalesce(sum(abs(err)), 0), coalesce(sum(err), 0)
    from c
    group by 1, 2, 3
    on conflict (user_id, day, model) do update set
      requests = d.requests + excluded.requests,
      input_tokens = d.input_tokens + excluded.input_tokens,
      output_tokens = d.output_tokens + excluded.output_tokens,
      cache_creation_input_tokens = d.cache_creation_input_tokens + excluded.cache_creation_input_tokens,
      cache_read_input_tokens = d.cache_read_input_tokens + excluded.cache_read_input_tokens,
      cost_usd = d.cost_usd + excluded.cost_usd,
      calibration_calls = d.calibration_calls + excluded.calibration_calls,
      calibration_abs_error = d.calibration_abs_error + excluded.calibration_abs_error,
      calibration_error = d.calibration_error + excluded.calibration_error
  )
  insert into public.llm_usage_day_sessions as d (user_id, day, session_id, requests, input_tokens, output_tokens,
    cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error)
  select user_id, day, session_id, count(*), sum(input_tokens), sum(output_tokens), sum(cache_creation_input_tokens),
    sum(cache_read_input_tokens), sum(cost_usd), count(err), coalesce(sum(abs(err)), 0), coalesce(sum(err), 0)
  from c
  group by 1, 2, 3
  on conflict (user_id, day, session_id) do update set
    requests = d.requests + excluded.requests,
    input_tokens = d.input_tokens + excluded.input_tokens,
    output_tokens = d.output_tokens + excluded.output_tokens,
    cache_creation_input_tokens = d.cache_creation_input_tokens + excluded.cache_creation_input_tokens,
    cache_read_input_tokens = d.cache_read_input_tokens + excluded.cache_read_input_tokens,
    cost_usd = d.cost_usd + excluded.cost_usd,
    calibration_calls = d.calibration_calls + excluded.calibration_calls,
    calibration_abs_error = d.calibration_abs_error + excluded.calibration_abs_error,
    calibration_error = d.calibration_error + excluded.calibration_error;
  return null;
end
$$;

create function public.compaction_logs_rollups() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  with c as (
    select user_id, (created_at at time zone 'UTC')::date as day, session_id, model from new_logs
  ), models as (
    insert into public.llm_usage_day_models as d (user_id, day, model, compactions)
    select user_id, day, model, count(*) from c group by 1, 2, 3
    on conflict (user_id, day, model) do update set compactions = d.compactions + excluded.compactions
  )
  insert into public.llm_usage_day_sessions as d (user_id, day, session_id, compactions)
  select user_id, day, session_id, count(*) from c group by 1, 2, 3
  on conflict (user_id, day, session_id) do update set compactions = d.compactions + excluded.compactions;
  return null;
end
$$;

-- Created before the backfill: they lock llm_calls and compaction_logs against writes until this
-- migration commits, so every call and compaction is counted once, by the backfill or a trigger.
create trigger llm_calls_rollups
  after insert on public.llm_calls
  referencing new table as new_calls
  for each statement execute function public.llm_calls_rollups();
create trigger compaction_logs_rollups
  after insert on public.compaction_logs
  referencing new table as new_logs
  for each statement execute function public.compaction_logs_rollups();

-- Calls recorded before this migration (the error as in the trigger above).
create temporary table llm_calls_backfill on commit drop as
select user_id, (created_at at time zone 'UTC')::date as day, session_id, model, kind, input_tokens, output_tokens,
  cache_creation_input_tokens, cache_read_input_tokens, cost_usd,
  case when kind = 'chat' and estimated_input_tokens is not null
      and input_tokens + cache_creation_input_tokens + cache_read_input_tokens > 0
    then (estimated_input_tokens - (input_tokens + cache_creation_input_tokens + cache_read_input_tokens))::float8
      / (input_tokens + cache_creation_input_tokens + cache_read_input_tokens) end as err
from public.llm_calls;

update public.llm_usage_daily d set calibration_calls = c.n, calibration_abs_error = c.abs_err, calibration_error = c.err
from (
  select user_id, day, session_id, model, kind, count(*) as n, sum(abs(err)) as abs_err, sum(err) as err
  from llm_calls_backfill where err is not null group by 1, 2, 3, 4, 5
) c
where d.user_id = c.user_id and d.day = c.day and d.session_id is not distinct from c.session_id
  and d.model = c.model and d.kind = c.kind;

insert into public.llm_usage_day_models (user_id, day, model, requests, input_tokens, output_tokens,
  cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error)
select user_id, day, model, count(*), sum(input_tokens), sum(output_tokens), sum(cache_creation_input_tokens),
  sum(cache_read_input_tokens), sum(cost_usd), count(err), coalesce(sum(abs(err)), 0), coalesce(sum(err), 0)
from llm_calls_backfill group by 1, 2, 3;

insert into public.llm_usage_day_sessions (user_id, day, session_id, requests, input_tokens, output_tokens,
  cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error)
select user_id, day, session_id, count(*), sum(input_tokens), sum(output_tokens), sum(cache_creation_input_tokens),
  sum(cache_read_input_tokens), sum(cost_usd), count(err), coalesce(sum(abs(err)), 0), coalesce(sum(err), 0)
from llm_calls_backfill group by 1, 2, 3;

insert into public.llm_usage_day_models as d (user_id, day, model, compactions)
select user_id, (created_at at time zone 'UTC')::date, model, count(*) from public.compaction_logs group by 1, 2, 3
on conflict (user_id, day, model) do update set compactions = excluded.compactions;

insert into public.llm_usage_day_sessions as d (user_id, day, session_id, compactions)
select user_id, (created_at at time zone 'UTC')::date, session_id, count(*) from public.compaction_logs group by 1, 2, 3
on conflict (user_id, day, session_id) do update set compactions = excluded.compactions;

-- One session's usage: its rollup rows by day (a session filter), and its calls turn by turn
-- (the turn view counts the session's turns and reads the latest first). user_id rides along
-- so that counting turns (and the RLS check on each) never visits the table. The old
-- (session_id, created_at) index served no query that this one does not.
create index llm_usage_day_sessions_session_idx on public.llm_usage_day_sessions (session_id, day);
create index llm_usage_daily_session_idx on public.llm_usage_daily (session_id, day);
drop index public.llm_calls_session_idx;
create index llm_calls_session_turn_idx on public.llm_calls (session_id, turn_seq) include (user_id);
