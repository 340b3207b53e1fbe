-- A turn's nested database work, cut (issue 22). Every statement a trigger, a foreign key or a
-- row-level-security function runs is a statement the database executes for the turn; an
-- ordinary turn ran about 31 of them besides its own ~24. What changes:
--
-- 1. A message's session is checked by one composite foreign key, (session_id, user_id) ->
--    sessions (id, user_id), instead of three checks per written row: the session foreign key,
--    the user foreign key and the restrictive RLS policy calling owns_session(). The key says
--    more than the policy did (a message can only ever sit in a session of its own user, for
--    every role, the app's own included) and a user's deletion still reaches their messages
--    through their sessions.
-- 2. A message's word count (search_len) is computed by an expression PostgreSQL inlines, not a
--    SQL function with a FROM clause that ran as a statement of its own for every message.
-- 3. The word statistics (migration 20261126000001) are kept by one statement per message that
--    changes them instead of three to five per statement that might: inserts and updates count
--    per row, fired only when a row's searchable words change; deletes still count at once.
--    Lexemes no message holds any more are removed on deletes (stored messages never change
--    words; see messages_append_only).
-- 4. The embedding queue's row is written as the trigger's owner (no RLS function call), and
--    without a foreign key to auth.users: the message's own key already removes it with the
--    message, and the message with its user.
-- 5. The usage rollups lose their keys to auth.users (below).

-- 1
alter table public.sessions add constraint sessions_id_user_key unique (id, user_id);
alter table public.messages drop constraint messages_session_id_fkey;
alter table public.messages drop constraint messages_user_id_fkey;
alter table public.messages add constraint messages_session_user_fkey
  foreign key (session_id, user_id) references public.sessions (id, user_id) on delete cascade;
drop policy messages_parents_insert on public.messages;
drop policy messages_parents_update on public.messages;

-- 2: the positions in the tsvector's text form, once its quoted lexemes are set aside (a lexeme
-- without positions, as strip() leaves them, counts once, as unnest() counted it).
create or replace function public.tsvector_occurrences(v tsvector) returns integer
language sql immutable parallel safe as $$
  select pg_catalog.regexp_count(pg_catalog.regexp_replace(v::text, '''(?:[^'']|'''')*''', 'L', 'g'), '[0-9]+|L(?= |$)')
$$;

-- 3: inserts and updates counted per row, and only rows that change the counts fire at all (a
-- reply's row opened empty while it streams, its flushes, a protection flag: none of them); a
-- delete, often of a whole session, still counts its rows at once.
drop trigger messages_search_statistics_insert on public.messages;
drop trigger messages_search_statistics_update on public.messages;
drop function public.messages_search_statistics_update();
drop function public.search_statistics_apply(uuid[], tsvector[], integer[], integer[]);

-- Adds signed counts: +1 per lexeme of a message that became searchable, -1 per lexeme of one
-- that stopped being (or whose words changed: out, then in again). Rows are locked in key
-- order, so two transactions of one user never deadlock on them.
create function public.messages_search_statistics_row() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  with changed as (
    select new.user_id as user_id, new.search as search, new.search_len as len, 1 as sign where new.searchable
    union all
    select old.user_id, old.search, old.search_len, -1 where tg_op = 'UPDATE' and old.searchable
  ),
  terms as (
    insert into public.search_terms as t (user_id, term, df)
    select c.user_id, pg_catalog.hashtextextended(l.lexeme, 0), sum(c.sign)
    from changed c, pg_catalog.unnest(pg_catalog.tsvector_to_array(c.search)) l(lexeme)
    group by 1, 2 having sum(c.sign) <> 0 order by 1, 2
    on conflict (user_id, term) do update set df = t.df + excluded.df
    returning 1
  )
  insert into public.search_totals as t (user_id, docs, words)
  select c.user_id, sum(c.sign), sum(c.sign * coalesce(c.len, 0)) from changed c group by 1
  having sum(c.sign) <> 0 or sum(c.sign * coalesce(c.len, 0)) <> 0
  on conflict (user_id) do update set docs = t.docs + excluded.docs, words = t.words + excluded.words;
  return null;
end $$;
revoke execute on function public.messages_search_statistics_row() from public;

create trigger messages_search_statistics_insert after insert on public.messages
  for each row when (new.searchable) execute function public.messages_search_statistics_row();
create trigger messages_search_statistics_update after update on public.messages
  for each row when (old.searchable is distinct from new.searchable or (new.searchable and old.search is distinct from new.search))
  execute function public.messages_search_statistics_row();

-- Deleted rows, counted out at once; lexemes no message holds any more go.
create or replace function public.messages_search_statistics_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  with changed as (
    select c.user_id, c.search, c.search_len as len from changed_rows c where c.searchable
  ),
  terms as (
    update public.search_terms t set df = t.df - g.n
    from (
      select c.user_id, pg_catalog.hashtextextended(l.lexeme, 0) as term, count(*) as n
      from changed c, pg_catalog.unnest(pg_catalog.tsvector_to_array(c.search)) l(lexeme)
      group by 1, 2 order by 1, 2
    ) g
    where t.user_id = g.user_id and t.term = g.term
    returning 1
  )
  update public.search_totals t set docs = t.docs - g.docs, words = t.words - g.words
  from (select c.user_id, count(*) as docs, coalesce(sum(c.len), 0) as words from changed c group by 1) g
  where t.user_id = g.user_id;
  delete from public.search_terms t where t.df <= 0 and t.user_id in (select c.user_id from changed_rows c);
  delete from public.search_totals t where t.docs <= 0 and t.user_id in (select c.user_id from changed_rows c);
  return null;
end $$;

-- 4: the body (migration 20261123000010) names its table in full, so it runs as is with an empty search_path.
alter function public.messages_enqueue_embedding() security definer set search_path = '';
revoke execute on function public.messages_enqueue_embedding() from public;
alter table public.message_embeddings drop constraint message_embeddings_user_id_fkey;

-- 5: the usage rollups are written with every billed call, and each of the three checked its key
-- to auth.users every time (a probe and a share lock on the user's row, which concurrent turns
-- of one user turned into multixacts). Their rows derive from llm_calls, which keeps its key:
-- when a user's calls go with the user, their rollups go too.
alter table public.llm_usage_daily drop constraint llm_usage_daily_user_id_fkey;
alter table public.llm_usage_day_models drop constraint llm_usage_day_models_user_id_fkey;
alter table public.llm_usage_day_sessions drop constraint llm_usage_day_sessions_user_id_fkey;

create function public.llm_calls_users_gone() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.llm_usage_daily d where d.user_id in (select g.user_id from gone g)
    and not exists (select 1 from auth.users u where u.id = d.user_id);
  delete from public.llm_usage_day_models d where d.user_id in (select g.user_id from gone g)
    and not exists (select 1 from auth.users u where u.id = d.user_id);
  delete from public.llm_usage_day_sessions d where d.user_id in (select g.user_id from gone g)
    and not exists (select 1 from auth.users u where u.id = d.user_id);
  return null;
end $$;
revoke execute on function public.llm_calls_users_gone() from public;
create trigger llm_calls_users_gone after delete on public.llm_calls
  referencing old table as gone for each statement execute function public.llm_calls_users_gone();
