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
-- 3. The word statistics' triggers (migration 20261126000001) run one statement per firing
--    instead of three to five: the statistics are applied by a single statement with the changed
--    rows as a CTE. Lexemes no message holds any more are removed where counts can fall: on
--    deletes (stored messages never change words; see messages_append_only).
-- 4. The embedding queue's row is written as the trigger's owner (no RLS function call), and
--    without a foreign key to auth.users: the message's own key already removes it with the
--    message, and the message with its user.

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

-- 3
create or replace function public.messages_search_statistics_rows() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  with changed as (
    select c.user_id, c.search, c.search_len as len, case when tg_op = 'INSERT' then 1 else -1 end as sign
    from changed_rows c where c.searchable
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
  select c.user_id, sum(c.sign), sum(c.sign * coalesce(c.len, 0)) from changed c group by 1 order by 1
  on conflict (user_id) do update set docs = t.docs + excluded.docs, words = t.words + excluded.words;
  if tg_op = 'DELETE' then
    delete from public.search_terms t where t.df <= 0 and t.user_id in (select c.user_id from changed_rows c);
    delete from public.search_totals t where t.docs <= 0 and t.user_id in (select c.user_id from changed_rows c);
  end if;
  return null;
end $$;

-- A reply that finishes streaming is counted in; a searchable message that stopped being one, or
-- whose words changed, out and (words changed) in again.
create or replace function public.messages_search_statistics_update() returns trigger
language plpgsql security definer set search_path = '' as $$
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
  select c.user_id, sum(c.sign), sum(c.sign * coalesce(c.len, 0)) from changed c group by 1 order by 1
  on conflict (user_id) do update set docs = t.docs + excluded.docs, words = t.words + excluded.words;
  return null;
end $$;

drop function public.search_statistics_apply(uuid[], tsvector[], integer[], integer[]);

-- 4
create or replace function public.messages_enqueue_embedding() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status <> 'streaming' and (tg_op = 'INSERT' or old.status = 'streaming') then
    insert into public.message_embeddings (message_id, user_id) values (new.id, new.user_id)
    on conflict (message_id) do nothing;
  end if;
  return null;
end $$;
revoke execute on function public.messages_enqueue_embedding() from public;
alter table public.message_embeddings drop constraint message_embeddings_user_id_fkey;
