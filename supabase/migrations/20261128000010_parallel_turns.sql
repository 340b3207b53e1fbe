-- One user's parallel turns no longer wait on each other (issue 32). Every turn of a user added
-- to rows it shared with every other turn of that user: the word statistics (search_totals, one
-- row per user, and search_terms, one per user and word), the usage rollup per day and model
-- (llm_usage_day_models) and the model's calibration (model_calibrations, written by the app).
-- An upsert of such a row holds its lock to the end of the turn's transaction, so with twenty
-- conversations of one API key a reply's statement waited 180-250 ms of a 300 ms turn.
--
-- The first three become append-only: each change is a row of its own (its `folded` flag false),
-- inserted without a unique key, so no turn ever waits for another's; every reader sums the rows
-- of a key, so it reads exact figures whether or not they were folded. fold_rollups() below,
-- called by each instance's background indexer pass (lib/search/indexer.ts), replaces a key's
-- rows by one folded row, so the tables stay as small as they were. The calibration is written
-- by the app with `for update skip locked` (lib/db/settings.ts).

-- 1. The word statistics.
alter table public.search_terms drop constraint search_terms_pkey;
alter table public.search_totals drop constraint search_totals_pkey;
-- Existing rows are already one per key: folded. New rows say otherwise.
alter table public.search_terms add column folded boolean not null default true;
alter table public.search_totals add column folded boolean not null default true;
alter table public.search_terms alter column folded set default false;
alter table public.search_totals alter column folded set default false;
create index search_terms_user_term_idx on public.search_terms (user_id, term);
create index search_totals_user_idx on public.search_totals (user_id);
-- What the fold reads first: the keys with rows to fold.
create index search_terms_unfolded_idx on public.search_terms (user_id, term) where not folded;
create index search_totals_unfolded_idx on public.search_totals (user_id) where not folded;
-- The fold drops a key whose rows sum to nothing; deletes no longer look for emptied rows.
drop index public.search_terms_emptied_idx;

-- Queues the message for the indexer once its text is final, and adds signed counts as rows of
-- their own: +1 per lexeme of a message that became searchable, -1 per lexeme of one that
-- stopped being (or whose words changed: out, then in again).
create or replace function public.messages_indexed_row() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  with queued as (
    insert into public.message_embeddings (message_id, user_id)
    select new.id, new.user_id where new.status <> 'streaming' and (tg_op = 'INSERT' or old.status = 'streaming')
    on conflict (message_id) do nothing
    returning 1
  ),
  changed as (
    select new.user_id as user_id, new.search as search, new.search_len as len, 1 as sign where new.searchable
    union all
    select old.user_id, old.search, old.search_len, -1 where tg_op = 'UPDATE' and old.searchable
  ),
  terms as (
    insert into public.search_terms (user_id, term, df, folded)
    select c.user_id, pg_catalog.hashtextextended(l.lexeme, 0), sum(c.sign), false
    from changed c, pg_catalog.unnest(pg_catalog.tsvector_to_array(c.search)) l(lexeme)
    group by 1, 2 having sum(c.sign) <> 0
    returning 1
  )
  insert into public.search_totals (user_id, docs, words, folded)
  select c.user_id, sum(c.sign), sum(c.sign * coalesce(c.len, 0)), false from changed c group by 1
  having sum(c.sign) <> 0 or sum(c.sign * coalesce(c.len, 0)) <> 0;
  return null;
end $$;

-- Deleted rows, counted out as rows of their own.
create or replace function public.messages_search_statistics_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  with changed as (
    select c.user_id, c.search, c.search_len as len from changed_rows c where c.searchable
  ),
  terms as (
    insert into public.search_terms (user_id, term, df, folded)
    select c.user_id, pg_catalog.hashtextextended(l.lexeme, 0), -count(*), false
    from changed c, pg_catalog.unnest(pg_catalog.tsvector_to_array(c.search)) l(lexeme)
    group by 1, 2
    returning 1
  )
  insert into public.search_totals (user_id, docs, words, folded)
  select c.user_id, -count(*), -coalesce(sum(c.len), 0), false from changed c group by 1;
  return null;
end $$;

-- 2. The usage rollup per day and model (the dashboard's totals, day and model views). The
-- rollups per day and session (llm_usage_day_sessions) and per day, session, model and kind
-- (llm_usage_daily) keep their upserts: only one turn of a session runs at a time (its lease).
alter table public.llm_usage_day_models drop constraint llm_usage_day_models_user_id_day_model_key;
alter table public.llm_usage_day_models add column folded boolean not null default true;
alter table public.llm_usage_day_models alter column folded set default false;
create index llm_usage_day_models_user_day_idx on public.llm_usage_day_models (user_id, day, model);
create index llm_usage_day_models_unfolded_idx on public.llm_usage_day_models (user_id, day, model) where not folded;

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
    insert into public.llm_usage_day_models (user_id, day, model, requests, input_tokens, output_tokens,
      cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error, calibration_error, folded)
    select user_id, day, model, count(*), sum(input_tokens), sum(output_tokens), sum(cache_creation_input_tokens),
      sum(cache_read_input_tokens), sum(cost_usd), count(err), coalesce(sum(abs(err)), 0), coalesce(sum(err), 0), false
    from c
    group by 1, 2, 3
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

create or replace function public.compaction_logs_rollups() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with c as (
    select user_id, (created_at at time zone 'UTC')::date as day, session_id, model from new_logs
  ), models as (
    insert into public.llm_usage_day_models (user_id, day, model, compactions, folded)
    select user_id, day, model, count(*), false from c group by 1, 2, 3
  )
  insert into public.llm_usage_day_sessions as d (user_id, day, session_id, compactions)
  select user_id, day, session_id, count(*) from c group by 1, 2, 3
  on conflict (user_id, day, session_id) do update set compactions = d.compactions + excluded.compactions;
  return null;
end
$$;

-- 3. The fold: up to `max_keys` keys of each table with rows to fold, each key's rows replaced by
-- their sum (a key whose word counts sum to nothing goes). One instance folds at a time (the
-- others return at once); a turn's insert never waits for it, since no unique key is involved,
-- and a reader sees either the rows or their sum, never both. Returns the keys folded.
create function public.fold_rollups(max_keys integer) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  folded_keys integer := 0;
  n integer;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(7261128010) then
    return 0;
  end if;
  with k as materialized (
    select distinct t.user_id, t.term from public.search_terms t where not t.folded limit max_keys
  ), gone as (
    delete from public.search_terms t using k where t.user_id = k.user_id and t.term = k.term
    returning t.user_id, t.term, t.df
  ), merged as (
    insert into public.search_terms (user_id, term, df, folded)
    select g.user_id, g.term, sum(g.df), true from gone g group by 1, 2 having sum(g.df) <> 0
  )
  select count(*) into n from k;
  folded_keys := folded_keys + n;

  with k as materialized (
    select distinct t.user_id from public.search_totals t where not t.folded limit max_keys
  ), gone as (
    delete from public.search_totals t using k where t.user_id = k.user_id
    returning t.user_id, t.docs, t.words
  ), merged as (
    insert into public.search_totals (user_id, docs, words, folded)
    select g.user_id, sum(g.docs), sum(g.words), true from gone g group by 1
    having sum(g.docs) <> 0 or sum(g.words) <> 0
  )
  select count(*) into n from k;
  folded_keys := folded_keys + n;

  with k as materialized (
    select distinct d.user_id, d.day, d.model from public.llm_usage_day_models d where not d.folded limit max_keys
  ), gone as (
    delete from public.llm_usage_day_models d using k
    where d.user_id = k.user_id and d.day = k.day and d.model is not distinct from k.model
    returning d.*
  ), merged as (
    insert into public.llm_usage_day_models (user_id, day, model, requests, input_tokens, output_tokens,
      cache_creation_input_tokens, cache_read_input_tokens, cost_usd, calibration_calls, calibration_abs_error,
      calibration_error, compactions, folded)
    select g.user_id, g.day, g.model, sum(g.requests), sum(g.input_tokens), sum(g.output_tokens),
      sum(g.cache_creation_input_tokens), sum(g.cache_read_input_tokens), sum(g.cost_usd), sum(g.calibration_calls),
      sum(g.calibration_abs_error), sum(g.calibration_error), sum(g.compactions), true
    from gone g group by 1, 2, 3
  )
  select count(*) into n from k;
  return folded_keys + n;
end $$;
revoke execute on function public.fold_rollups(integer) from public;
do $$ begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke execute on function public.fold_rollups(integer) from anon;
  end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated') then
    revoke execute on function public.fold_rollups(integer) from authenticated;
  end if;
end $$;
