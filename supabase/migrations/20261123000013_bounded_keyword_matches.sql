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
-- Two plans, and the planner must see the actual query to choose: a rare term reads its few
-- matches from the GIN index and sorts them by date; a common one walks the new
-- (user_id, created_at desc) index from the newest message and tests each row until it has
-- `max_rows` matches. PL/pgSQL with plan_cache_mode = force_custom_plan plans every call with
-- the tsquery, the caller and the bounds as constants (a generic plan would use the same plan
-- for both kinds of term), and the caller's id is read once into a variable for the same reason.
--
-- Still security definer (RLS would stop `@@` from being an index condition, see
-- 20261123000010) and still filtered to auth.uid(), streaming replies left out, callable only
-- by authenticated users.
drop function public.messages_matching(tsquery);

create index messages_user_created_idx on public.messages (user_id, created_at desc);

create function public.messages_matching(q tsquery, max_rows integer, after timestamptz default null, before timestamptz default null)
returns table (id uuid, session_id uuid, seq integer, created_at timestamptz, rank real)
language plpgsql stable security definer
set search_path = '' set plan_cache_mode = force_custom_plan as $$
#variable_conflict use_column
declare
  caller uuid := auth.uid();
begin
  if caller is null or q is null or max_rows is null or max_rows < 1 then
    return;
  end if;
  return query
    select n.id, n.session_id, n.seq, n.created_at, ts_rank_cd(n.search, q)
    from (
      select m.id, m.session_id, m.seq, m.created_at, m.search
      from public.messages m
      where m.user_id = caller and m.search @@ q and m.status <> 'streaming'
        and (after is null or m.created_at >= after) and (before is null or m.created_at <= before)
      order by m.created_at desc
      limit max_rows
    ) n;
end $$;
revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) from public;
grant execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) to authenticated;
-- Supabase's default privileges grant every new function in public to anon as well.
do $$ begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke execute on function public.messages_matching(tsquery, integer, timestamptz, timestamptz) from anon;
  end if;
end $$;
