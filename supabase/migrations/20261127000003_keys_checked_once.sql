-- Keys a turn checked again and again, and two triggers per message where one does (issue 22). PostgreSQL re-checks a row's foreign keys on
-- every update of a row its own transaction already wrote, even when the key did not change: a
-- turn updates its session's row several times per transaction (the lease, each message's slot,
-- the reply's counters, the lease again), and each time probed and share-locked the user's
-- auth.users row. Two keys are now checked where they can change, and no more often:
--
-- 1. sessions.user_id -> auth.users: checked (and the user's row key-share locked, as the key
--    did) when a session is inserted or its owner changes; a user's deletion deletes their
--    sessions by a trigger on auth.users, as the key's cascade did (Supabase allows triggers on
--    auth.users; the function runs as its owner). Everything hanging off a session still goes
--    with it by its own keys.
-- 2. message_embeddings.message_id -> messages: the row is only ever written by the messages
--    trigger for a message that exists, so the key was only a cascade; a statement-level delete
--    trigger on messages removes a deleted message's row instead, once per statement.
-- 3. A message whose text is final joins the indexer's queue and the word statistics in one
--    statement of one trigger, where two triggers ran a statement each: both fire on the same
--    events (stored complete, or a streamed reply finishing), and the statistics keep counting
--    as they did (migration 20261127000002), in the same transaction as the message.

-- 1
alter table public.sessions drop constraint sessions_user_id_fkey;

create function public.sessions_user_exists() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform 1 from auth.users u where u.id = new.user_id for key share;
  if not found then
    raise exception 'insert or update on table "sessions" violates its owner''s key'
      using errcode = 'foreign_key_violation', detail = format('Key (user_id)=(%s) is not present in table "users".', new.user_id);
  end if;
  return new;
end $$;
revoke execute on function public.sessions_user_exists() from public;
create trigger sessions_user_exists_insert before insert on public.sessions
  for each row execute function public.sessions_user_exists();
create trigger sessions_user_exists_update before update of user_id on public.sessions
  for each row when (old.user_id is distinct from new.user_id) execute function public.sessions_user_exists();

create function public.users_sessions_gone() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.sessions s where s.user_id = old.id;
  return null;
end $$;
revoke execute on function public.users_sessions_gone() from public;
create trigger users_sessions_gone after delete on auth.users
  for each row execute function public.users_sessions_gone();

-- 2
alter table public.message_embeddings drop constraint message_embeddings_message_id_fkey;

create function public.messages_embeddings_gone() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.message_embeddings e where e.message_id in (select g.id from gone g);
  return null;
end $$;
revoke execute on function public.messages_embeddings_gone() from public;
create trigger messages_embeddings_gone after delete on public.messages
  referencing old table as gone for each statement execute function public.messages_embeddings_gone();

-- 3
drop trigger messages_enqueue_embedding on public.messages;
drop trigger messages_search_statistics_insert on public.messages;
drop trigger messages_search_statistics_update on public.messages;
drop function public.messages_enqueue_embedding();
drop function public.messages_search_statistics_row();

-- Queues the message for the indexer once its text is final, and adds signed counts: +1 per
-- lexeme of a message that became searchable, -1 per lexeme of one that stopped being (or whose
-- words changed: out, then in again). Rows are locked in key order, so two transactions of one
-- user never deadlock on them.
create function public.messages_indexed_row() returns trigger
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
revoke execute on function public.messages_indexed_row() from public;

create trigger messages_indexed_insert after insert on public.messages
  for each row when (new.status <> 'streaming') execute function public.messages_indexed_row();
create trigger messages_indexed_update after update on public.messages
  for each row when (
    (old.status = 'streaming' and new.status <> 'streaming')
    or old.searchable is distinct from new.searchable
    or (new.searchable and old.search is distinct from new.search)
  ) execute function public.messages_indexed_row();
