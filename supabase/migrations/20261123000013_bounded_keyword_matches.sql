-- Keyword matches at a bounded cost, whatever the history's size.
--
-- messages_matching(tsquery) (20261123000010) returned every match of the caller, each ranked
-- with ts_rank_cd. A common word, or the any-word fallback over a few words, matched a large
-- part of a long history, and ranking all of it grew linearly with the history (68 ms p95 for
-- "migration index timeout" at 20K messages, far more at 1M).
--
-- This version ranks at most the caller's newest `max_rows` matches (optionally within
-- [after, before], so a date-filtered search still reaches old matches). The trade-off: for a
-- query matching more than `max_rows` messages, relevance is judged among the newest of them;
-- an older, better-covered match of a common word is not found by the keyword arm (the
-- embedding arm still searches everything). Rare terms, the usual way to find an old fact, match
-- fewer rows than the cap and lose nothing.
--
-- How, measured on PostgreSQL 15 at 100K and 1M messages (scripts/bench/search.ts). The
-- function asks the planner how many messages match (EXPLAIN's estimate, from the column's
-- lexeme statistics; a word absent from them is estimated at a small fraction of the table)
-- and picks the cheapest of three ways, each costed in rows touched times what a row costs:
--   * the GIN index alone: every match is fetched and the newest kept (about 1 unit a match);
--     right for rare terms, whatever the history's size.
--   * walking the (user_id, created_at desc) index from the newest message, testing each row
--     until `max_rows` match (about 10 units a row, 7-20 us measured: a message's tsvector is
--     often TOASTed, so testing it means fetching it); right for words in a large share of
--     messages, where a few thousand rows suffice.
--   * bands of the caller's history, newest first, each holding about 1.5 x max_rows / (the
--     term's frequency) messages: the band's lower bound is counted off that index (0.7 a row),
--     the matches are the GIN bitmap AND the band's range bitmap (0.2 a posting), and the next
--     band, 4 x larger, is read only when one falls short; right in between.
-- JIT is off: the planner's costs for these statements at 1M rows pass its threshold and
-- compiling took longer (100-500 ms) than any of them runs.
--
-- Every statement is planned with the actual values (plan_cache_mode = force_custom_plan): a
-- generic plan would use one plan for rare and common terms alike. The caller's id is read once.
--
-- Still security definer (RLS would stop `@@` from being an index condition, see
-- 20261123000010) and still filtered to auth.uid(), streaming replies left out, callable only
-- by authenticated users.
drop function public.messages_matching(tsquery);

create index messages_user_created_idx on public.messages (user_id, created_at desc);

create function public.messages_matching(q tsquery, max_rows integer, after timestamptz default null, before timestamptz default null)
returns table (id uuid, session_id uuid, seq integer, created_at timestamptz, rank real)
-- Volatile only because EXPLAIN (the estimate) and set_config are refused in a stable function; it writes nothing.
language plpgsql volatile security definer
set search_path = '' set plan_cache_mode = force_custom_plan set jit = off
-- The strategies below switch plan types off for one statement; these restore them at exit.
set enable_indexscan = on set enable_bitmapscan = on set enable_seqscan = on as $$
#variable_conflict use_column
declare
  caller uuid := auth.uid();
  plan json;
  estimate float8;
  total float8;
  per_band float8;
  cost_index float8;
  cost_walk float8;
  cost_bands float8;
  strategy text;
  -- The current band: created_at in [lower_at, upper_at], both inclusive, null = unbounded.
  lower_at timestamptz;
  upper_at timestamptz := before;
  got bigint := 0;
  found_rows bigint;
begin
  if caller is null or q is null or max_rows is null or max_rows < 1 then
    return;
  end if;
  execute 'explain (format json) select 1 from public.messages m where m.search @@ $1' into plan using q;
  estimate := greatest((plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8, 1);
  select greatest(c.reltuples, 1) into total from pg_catalog.pg_class c where c.oid = 'public.messages'::regclass;
  per_band := ceil(1.5 * max_rows * greatest(total, estimate) / estimate);
  cost_index := estimate;
  cost_walk := 10 * max_rows * greatest(total, estimate) / estimate;
  cost_bands := 0.7 * per_band + 0.2 * estimate + max_rows;
  strategy := case
    when cost_index <= cost_walk and cost_index <= cost_bands then 'index'
    when cost_walk <= cost_bands then 'walk'
    else 'bands' end;

  loop
    if strategy = 'bands' then
      lower_at := null;
      select m.created_at into lower_at
      from public.messages m
      where m.user_id = caller and (upper_at is null or m.created_at <= upper_at) and (after is null or m.created_at >= after)
      order by m.created_at desc
      offset least(per_band, 2e9)::bigint - 1 limit 1;
      -- No per_band-th message: this band reaches back to the start (or `after`).
      if lower_at is null then
        lower_at := after;
      end if;
    else
      lower_at := after;
    end if;
    if strategy = 'walk' then
      perform pg_catalog.set_config('enable_bitmapscan', 'off', true);
      perform pg_catalog.set_config('enable_seqscan', 'off', true);
    else
      perform pg_catalog.set_config('enable_indexscan', 'off', true);
      perform pg_catalog.set_config('enable_seqscan', 'off', true);
    end if;
    return query
      select n.id, n.session_id, n.seq, n.created_at, ts_rank_cd(n.search, q)
      from (
        select m.id, m.session_id, m.seq, m.created_at, m.search
        from public.messages m
        where m.user_id = caller and m.search @@ q and m.status <> 'streaming'
          and (lower_at is null or m.created_at >= lower_at) and (upper_at is null or m.created_at <= upper_at)
        order by m.created_at desc
        limit max_rows - got
      ) n;
    get diagnostics found_rows = row_count;
    perform pg_catalog.set_config('enable_indexscan', 'on', true);
    perform pg_catalog.set_config('enable_bitmapscan', 'on', true);
    perform pg_catalog.set_config('enable_seqscan', 'on', true);
    got := got + found_rows;
    exit when strategy <> 'bands' or got >= max_rows or lower_at is null or lower_at = after;
    -- The next band ends just before this one began (timestamps are whole microseconds).
    upper_at := lower_at - interval '1 microsecond';
    per_band := per_band * 4;
  end loop;
end $$;
revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) from public;
grant execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) to authenticated;
-- Supabase's default privileges grant every new function in public to anon as well.
do $$ begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) from anon;
  end if;
end $$;
