-- messages_matching (20261123000013) with its cost model measured rather than guessed, and
-- adaptive: it measures how often the query matches the caller's messages as it goes.
--
-- At 1M messages of one user on PostgreSQL 15 (warm cache) the old model chose badly: a word in
-- 10 % of messages took the bands (20 ms: the GIN posting list of 100K entries) where walking the
-- recency index needs 4 ms; a term in 1 % took the GIN index alone (23 ms, a heap fetch for each
-- of 10K matches) where a band needs 10 ms; and words the statistics do not know (estimated at
-- half the rarest known word's frequency) sent a question's any-word query through band after
-- band of a history where it matched nothing (60 ms). Costs in microseconds, measured there:
--   * GIN posting list into a bitmap: 0.17 a resulting entry (every user's: the index is global);
--   * fetching a matching row from the heap: 2.3 (one random page each);
--   * walking (user_id, created_at desc) and testing a row's tsvector: 1.5 (TOAST included);
--   * a segment's lower bound, counted off that index: 0.11 a row; its range as a bitmap: 0.07;
--   * a segment's matches, fetched and sorted with their tsvectors: 3.
--
-- The caller's history is read newest first in segments, each sized to hold 1.5 x the matches
-- still wanted at the frequency expected, each read the cheaper way (walking it, or the GIN
-- bitmap AND its range); or the whole rest is read through the GIN index at once, when that is
-- cheaper. The first segment expects the planner's frequency (from the column's statistics, over
-- every user); later ones the frequency measured in the segments read, so a wrong estimate costs
-- one segment. The caller's own message count (the planner's estimate for their user_id) bounds
-- the rest: a short history is walked whole, whatever the word.
--
-- `threadkeeper.keyword_strategy` ('index', 'walk' or 'bands') forces every step's way: the tests
-- check that all three return the same rows, and the benchmark times each. Only a session's own
-- SET reaches it (the Data API cannot set it), and it changes only how fast the caller's own rows
-- come back.
create or replace function public.messages_matching(q tsquery, max_rows integer, after timestamptz default null, before timestamptz default null)
returns table (id uuid, session_id uuid, seq integer, created_at timestamptz, rank real)
-- Volatile only because EXPLAIN (the estimate) and set_config are refused in a stable function; it writes nothing.
language plpgsql volatile security definer
set search_path = '' set plan_cache_mode = force_custom_plan set jit = off
-- The strategies below switch plan types off for one statement; these restore them at exit.
set enable_indexscan = on set enable_bitmapscan = on set enable_seqscan = on as $$
#variable_conflict use_column
declare
  caller uuid := auth.uid();
  forced text := nullif(pg_catalog.current_setting('threadkeeper.keyword_strategy', true), '');
  plan json;
  -- Matches of every user (the GIN list's length); rows of the table; rows of the caller.
  matching float8;
  total float8;
  mine float8;
  -- The share of the caller's rows expected to match; rows read so far, and not yet.
  freq float8;
  scanned float8 := 0;
  rest float8;
  seg float8;
  cost_index float8;
  cost_walk float8;
  cost_bands float8;
  strategy text;
  -- The current segment: created_at in [lower_at, upper_at], both inclusive, null = unbounded.
  lower_at timestamptz;
  upper_at timestamptz := before;
  got bigint := 0;
  found_rows bigint;
begin
  if caller is null or q is null or max_rows is null or max_rows < 1 then
    return;
  end if;
  execute 'explain (format json) select 1 from public.messages m where m.search @@ $1' into plan using q;
  matching := greatest((plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8, 1);
  execute 'explain (format json) select 1 from public.messages m where m.user_id = $1' into plan using caller;
  mine := greatest((plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8, 1);
  select greatest(c.reltuples, matching, mine, 1) into total from pg_catalog.pg_class c where c.oid = 'public.messages'::regclass;
  freq := matching / total;

  loop
    rest := greatest(mine - scanned, 1);
    seg := ceil(1.5 * (max_rows - got) / freq);
    cost_index := 0.17 * matching + 2.3 * freq * rest;
    cost_walk := case when seg < rest then 0.11 * seg else 0 end + 1.5 * least(seg / 1.5, rest);
    cost_bands := 0.18 * least(seg, rest) + 0.17 * matching + 3 * freq * least(seg, rest);
    strategy := coalesce(forced, case
      when cost_index <= cost_walk and cost_index <= cost_bands then 'index'
      when cost_walk <= cost_bands then 'walk'
      else 'bands' end);

    lower_at := after;
    if strategy <> 'index' and seg < rest then
      select m.created_at into lower_at
      from public.messages m
      where m.user_id = caller and (upper_at is null or m.created_at <= upper_at) and (after is null or m.created_at >= after)
      order by m.created_at desc
      offset least(seg, 2e9)::bigint - 1 limit 1;
      -- No seg-th message: this segment reaches back to the start (or `after`).
      if lower_at is null then
        lower_at := after;
      end if;
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
    exit when got >= max_rows or lower_at is null or lower_at = after;
    -- The next segment ends just before this one began (timestamps are whole microseconds), and
    -- expects the frequency measured so far (half a match when none was found).
    upper_at := lower_at - interval '1 microsecond';
    scanned := scanned + seg;
    freq := greatest(got, 0.5) / scanned;
  end loop;
end $$;
