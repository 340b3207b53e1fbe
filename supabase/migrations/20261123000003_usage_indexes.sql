-- The usage dashboard (GET /api/usage, /api/usage/summary) reads whole days from
-- llm_usage_daily and only the partial days at a range's edges from llm_calls. The daily
-- rollup had no place for the calibration error (how far our estimate of a chat request was
-- from what the API measured), so over a year of calls that figure would have meant reading
-- every call. It is kept here as three sums per rollup row, from which any grouping (day,
-- session, model) gets its mean absolute and mean signed error exactly.
--
-- error of one chat call = (estimated_input_tokens - measured) / measured, where measured is
-- input + cache write + cache read tokens (what the API counted for the whole request).

alter table public.llm_usage_daily
  add column calibration_calls integer not null default 0,
  add column calibration_abs_error double precision not null default 0,
  add column calibration_error double precision not null default 0;

-- A statement trigger over the inserted rows (not a row trigger), so a bulk insert pays once
-- per statement. It upserts rather than updates: it adds to the row the recorder's statement
-- created (AFTER triggers fire when the whole statement, its upsert included, has run) and
-- still counts correctly if a recorder ever writes the rollup after the call. Runs as the
-- caller, so the rollup's RLS policy applies to what it writes, as to the recorder's upsert.
create function public.llm_calls_calibration_rollup() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  insert into public.llm_usage_daily as d (user_id, day, session_id, model, kind,
    calibration_calls, calibration_abs_error, calibration_error)
  select c.user_id, (c.created_at at time zone 'UTC')::date, c.session_id, c.model, c.kind, count(*),
    sum(abs(c.err)), sum(c.err)
  from (
    select n.*, (n.estimated_input_tokens - m.measured)::float8 / m.measured as err
    from new_calls n
    cross join lateral (select n.input_tokens + n.cache_creation_input_tokens + n.cache_read_input_tokens as measured) m
    where n.kind = 'chat' and n.estimated_input_tokens is not null and m.measured > 0
  ) c
  group by 1, 2, 3, 4, 5
  on conflict (user_id, day, session_id, model, kind) do update set
    calibration_calls = d.calibration_calls + excluded.calibration_calls,
    calibration_abs_error = d.calibration_abs_error + excluded.calibration_abs_error,
    calibration_error = d.calibration_error + excluded.calibration_error;
  return null;
end
$$;

create trigger llm_calls_calibration_rollup
  after insert on public.llm_calls
  referencing new table as new_calls
  for each statement execute function public.llm_calls_calibration_rollup();
