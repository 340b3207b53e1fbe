-- History search ranks like a search engine (Okapi BM25): a word counts by how rare it is in
-- the user's own history and a message by how long it is. The statistics that needs are kept
-- here with the messages, per user, by triggers, so PGlite and PostgreSQL rank the same way and
-- no query ever counts them:
--   * messages.search_len: the message's words (lexeme occurrences) as full-text search sees them;
--   * search_terms: in how many of the user's searchable messages each lexeme occurs, keyed by
--     the lexeme's 64-bit hash: the table derives from what people wrote, and a pasted secret
--     must not turn up in it as words (the messages themselves are where what was said lives);
--   * search_totals: how many searchable messages the user has, and their words in all.

-- Searchable, as history search reads them: finished (not streaming) and not a tool result.
-- Stored, so a search reads a flag instead of a long message's content to tell.
alter table public.messages add column searchable boolean generated always as (
  status <> 'streaming' and coalesce(content -> 0 ->> 'type', '') <> 'tool_result'
) stored;

create function public.tsvector_occurrences(v tsvector) returns integer
language sql immutable parallel safe as $$
  select coalesce(sum(coalesce(pg_catalog.array_length(u.positions, 1), 1)), 0)::integer from pg_catalog.unnest(v) u
$$;

alter table public.messages add column search_len integer;
-- When it was said, when that is not when it was stored: a line of a pasted or imported chat
-- log that opens with its own time (set by the app, lib/context/dates.ts). Null: created_at.
alter table public.messages add column said_at timestamptz;
update public.messages set search_len = public.tsvector_occurrences(search) where search is not null;

create or replace function public.messages_search_vector() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' and new.search is not null then
    new.search_len := coalesce(new.search_len, public.tsvector_occurrences(new.search));
    return new;
  end if;
  if tg_op = 'INSERT' or new.text is distinct from old.text then
    new.search := to_tsvector('english', left(new.text, 100000));
    new.search_len := public.tsvector_occurrences(new.search);
  end if;
  return new;
end $$;

-- No foreign key to auth.users: deleting a user deletes their messages, whose trigger below
-- takes their counts back out (a cascade here could run first and make that fail).
create table public.search_terms (
  user_id uuid not null,
  term bigint not null,
  df integer not null,
  primary key (user_id, term)
);

create table public.search_totals (
  user_id uuid primary key,
  docs bigint not null,
  words bigint not null
);

insert into public.search_terms (user_id, term, df)
select m.user_id, pg_catalog.hashtextextended(l.lexeme, 0), count(*) from public.messages m, pg_catalog.unnest(pg_catalog.tsvector_to_array(m.search)) l(lexeme)
where m.searchable group by 1, 2;
insert into public.search_totals (user_id, docs, words)
select m.user_id, count(*), coalesce(sum(m.search_len), 0) from public.messages m
where m.searchable group by 1;

-- Adds signed counts: +1 per lexeme of a message that became searchable, -1 per lexeme of one
-- that stopped being (deleted, or its words changed). Rows are locked in key order, so two
-- transactions of one user never deadlock on them; a lexeme no message holds any more goes.
create function public.search_statistics_apply(user_ids uuid[], searches tsvector[], lens integer[], signs integer[]) returns void
language plpgsql security definer set search_path = '' as $$
begin
  with changed as (
    select * from unnest(user_ids, searches, lens, signs) c(user_id, search, len, sign)
  ),
  terms as (
    insert into public.search_terms as t (user_id, term, df)
    select c.user_id, pg_catalog.hashtextextended(l.lexeme, 0), sum(c.sign) from changed c, pg_catalog.unnest(pg_catalog.tsvector_to_array(c.search)) l(lexeme)
    group by 1, 2 having sum(c.sign) <> 0 order by 1, 2
    on conflict (user_id, term) do update set df = t.df + excluded.df
    returning 1
  )
  insert into public.search_totals as t (user_id, docs, words)
  select c.user_id, sum(c.sign), sum(c.sign * coalesce(c.len, 0)) from changed c group by 1 order by 1
  on conflict (user_id) do update set docs = t.docs + excluded.docs, words = t.words + excluded.words;
  if -1 = any (signs) then
    delete from public.search_terms t where t.df <= 0 and t.user_id = any (user_ids);
    delete from public.search_totals t where t.docs <= 0 and t.user_id = any (user_ids);
  end if;
end $$;
revoke execute on function public.search_statistics_apply(uuid[], tsvector[], integer[], integer[]) from public;
create index search_terms_emptied_idx on public.search_terms (user_id) where df <= 0;

-- One trigger per event (transition tables allow no more), each a statement's rows at once;
-- inserted and deleted rows both arrive as `changed_rows`, counted in or out.
create function public.messages_search_statistics_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  u uuid[]; s tsvector[]; l integer[]; g integer[];
begin
  select array_agg(c.user_id), array_agg(c.search), array_agg(c.search_len), array_agg(case when tg_op = 'INSERT' then 1 else -1 end)
  into u, s, l, g from changed_rows c where c.searchable;
  if u is not null then
    perform public.search_statistics_apply(u, s, l, g);
  end if;
  return null;
end $$;

-- An update changes the statistics only when it changes the words, or whether the message is
-- searchable (a streamed reply that finishes); the rest (protection, flushes of a reply still
-- streaming) leave them alone.
create function public.messages_search_statistics_update() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  u uuid[]; s tsvector[]; l integer[]; g integer[];
begin
  with pairs as (
    select o.user_id, o.search as old_search, o.search_len as old_len, o.searchable as was,
      n.search as new_search, n.search_len as new_len, n.searchable as is_now
    from old_rows o join new_rows n on n.id = o.id
  ),
  changed as (
    select user_id, old_search as search, old_len as len, -1 as sign from pairs
    where was and (not is_now or old_search is distinct from new_search)
    union all
    select user_id, new_search, new_len, 1 from pairs
    where is_now and (not was or old_search is distinct from new_search)
  )
  select array_agg(c.user_id), array_agg(c.search), array_agg(c.len), array_agg(c.sign) into u, s, l, g from changed c;
  if u is not null then
    perform public.search_statistics_apply(u, s, l, g);
  end if;
  return null;
end $$;

create trigger messages_search_statistics_insert after insert on public.messages
  referencing new table as changed_rows for each statement execute function public.messages_search_statistics_rows();
create trigger messages_search_statistics_delete after delete on public.messages
  referencing old table as changed_rows for each statement execute function public.messages_search_statistics_rows();
create trigger messages_search_statistics_update after update on public.messages
  referencing old table as old_rows new table as new_rows for each statement execute function public.messages_search_statistics_update();

-- Read by the user's own searches (RLS); written only by the triggers above.
alter table public.search_terms enable row level security;
alter table public.search_totals enable row level security;
create policy search_terms_owner on public.search_terms for select to authenticated using (user_id = auth.uid());
create policy search_totals_owner on public.search_totals for select to authenticated using (user_id = auth.uid());
grant select on public.search_terms, public.search_totals to authenticated;
-- Supabase's default privileges grant every new table to anon and authenticated: no user
-- writes these (a lower count would bend their search), and no one calls the trigger functions.
-- (anon keeps the select Supabase gives it: no policy lets it see a row.)
revoke insert, update, delete, truncate on public.search_terms, public.search_totals from public, authenticated;
do $$ begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke insert, update, delete, truncate on public.search_terms, public.search_totals from anon;
  end if;
end $$;
revoke execute on function public.messages_search_statistics_rows(), public.messages_search_statistics_update() from public;

-- A session's view, now with the words' count and when each was said.
drop function public.session_messages(uuid);
create function public.session_messages(sid uuid)
returns table (
  id uuid, session_id uuid, user_id uuid, seq integer, turn_seq integer, role text, content jsonb, text text,
  token_count integer, protected boolean, status text, idempotency_key text, created_at timestamptz, search tsvector,
  supersedes_turn integer, restarts_turn boolean, search_len integer, said_at timestamptz, searchable boolean
) language sql stable as $$
  select m.id, m.session_id, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count, m.protected,
    m.status, m.idempotency_key, m.created_at, m.search, m.supersedes_turn, m.restarts_turn, m.search_len, m.said_at, m.searchable
  from public.messages m where m.session_id = sid
  union all
  select m.id, sid, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count,
    -- One lookup of the fork's (few) protected ids, not a probe per inherited row.
    m.id = any (array(select p.message_id from public.inherited_protection p where p.session_id = sid)),
    m.status, null, m.created_at, m.search, m.supersedes_turn, m.restarts_turn, m.search_len, m.said_at, m.searchable
  from public.session_lineage l
  join public.messages m on m.session_id = l.source_session_id and m.seq between l.from_seq and l.to_seq
  where l.session_id = sid
$$;
grant execute on function public.session_messages(uuid) to authenticated;

-- messages_matching (20261123000017) returns what BM25 scoring needs instead of a rank nobody
-- uses any more: when each match was said, its length and, given the query's lexemes (`terms`),
-- how often it holds each (ts_filter of the marked lexemes, as tsvector text); computing
-- ts_rank_cd for every match cost more than reading it. It reads searchable messages only
-- (tool results left out, as history search leaves them), by the stored flag. The way it reads
-- (the cost model and its segments) is unchanged.
drop function public.messages_matching(tsquery, integer, timestamptz, timestamptz);
create function public.messages_matching(q tsquery, max_rows integer, after timestamptz default null, before timestamptz default null, terms text[] default null)
returns table (id uuid, session_id uuid, seq integer, created_at timestamptz, said_at timestamptz, search_len integer, term_counts text)
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
      select n.id, n.session_id, n.seq, n.created_at, n.said_at, n.search_len,
        case when terms is not null then pg_catalog.ts_filter(pg_catalog.setweight(n.search, 'A', terms), '{a}')::text end
      from (
        select m.id, m.session_id, m.seq, m.created_at, m.said_at, m.search_len, m.search
        from public.messages m
        where m.user_id = caller and m.search @@ q and m.searchable
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
revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz, text[]) from public;
grant execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz, text[]) to authenticated;
-- Supabase's default privileges grant every new function in public to anon as well.
do $$ begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz, text[]) from anon;
  end if;
end $$;
