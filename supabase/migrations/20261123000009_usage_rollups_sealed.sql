-- The usage rollups were written as the caller (by the recorder's statement and by security
-- invoker triggers), so their owner held insert, update and delete on them, and through
-- Supabase's Data API could lower today's tokens and pass the daily budget, or rewrite the
-- dashboard's history. From here on the triggers alone write them, as the role that owns the
-- functions; users may only read their own rows. The rows a trigger writes come from the
-- inserted calls and compaction logs, which RLS has already checked belong to the caller.

create or replace function public.llm_calls_rollups() returns trigger
language plpgsql
security definer
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
    insert into public.llm_usage_daily as d (user_id, day, session_id, model, kind, requests, input_tokens, output_tokens,
      cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error)
    select user_id, day, session_id, model, kind, count(*), sum(input_tokens), sum(output_tokens),
      sum(cache_creation_input_tokens), sum(cache_read_input_tokens), sum(cost_usd), count(err),
      coalesce(sum(abs(err)), 0), coalesce(sum(err), 0)
    from c
    group by 1, 2, 3, 4, 5
    on conflict (user_id, day, session_id, model, kind) do update set
      requests = d.requests + excluded.requests,
      input_tokens = d.input_tokens + excluded.input_tokens,
      output_tokens = d.output_tokens + excluded.output_tokens,
      cache_creation_input_tokens = d.cache_creation_input_tokens + excluded.cache_creation_input_tokens,
      cache_read_input_tokens = d.cache_read_input_tokens + excluded.cache_read_input_tokens,
      cost_usd = d.cost_usd + excluded.cost_usd,
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

alter function public.compaction_logs_rollups() security definer;

-- Trigger functions are never called directly; no one needs to execute them.
revoke execute on function public.llm_calls_rollups(), public.compaction_logs_rollups() from public;

drop policy llm_usage_daily_owner on public.llm_usage_daily;
drop policy llm_usage_day_models_owner on public.llm_usage_day_models;
drop policy llm_usage_day_sessions_owner on public.llm_usage_day_sessions;
create policy llm_usage_daily_owner_select on public.llm_usage_daily for select to authenticated
  using (user_id = auth.uid());
create policy llm_usage_day_models_owner_select on public.llm_usage_day_models for select to authenticated
  using (user_id = auth.uid());
create policy llm_usage_day_sessions_owner_select on public.llm_usage_day_sessions for select to authenticated
  using (user_id = auth.uid());
revoke insert, update, delete on public.llm_usage_daily, public.llm_usage_day_models, public.llm_usage_day_sessions
  from authenticated;
