-- History search: anything ever said can be found. Full-text search already covers every
-- message (messages.search, GIN); this adds one embedding per message for the vector half of
-- the hybrid ranking, computed off the send path by a background indexer.
--
-- Size: a 1024-dim float4 vector per message is ~4 GB at 1M messages. These are 256-dim
-- halfvec (512 bytes, ~0.6 GB with the row and HNSW index overhead at 1M): both providers
-- produce 256 dimensions natively (Voyage's output_dimension; the local embedder hashes into
-- any width), and the vector half only has to re-rank and widen what full-text finds.

create table public.message_embeddings (
  message_id uuid primary key references public.messages (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- null until the indexer has embedded the message: the table is also the indexer's queue.
  model text,
  -- null when there was nothing to embed (an empty or stopword-only text).
  embedding halfvec(256),
  created_at timestamptz not null default now()
);
-- The indexer's queue: only rows still waiting, so the index stays tiny.
create index message_embeddings_pending_idx on public.message_embeddings (created_at) where model is null;
-- Nearest neighbours at any history size; searched with hnsw.iterative_scan so filters
-- (user, session, project, dates) still fill the candidate list.
create index message_embeddings_hnsw_idx on public.message_embeddings using hnsw (embedding halfvec_cosine_ops);
create index message_embeddings_user_idx on public.message_embeddings (user_id, model);

-- Enqueue a message once its text is final: inserted complete, or when its reply stops
-- streaming. A row insert (no embedding work) keeps the send path's cost to microseconds.
create function public.messages_enqueue_embedding() returns trigger language plpgsql as $$
begin
  if new.status <> 'streaming' and (tg_op = 'INSERT' or old.status = 'streaming') then
    insert into public.message_embeddings (message_id, user_id) values (new.id, new.user_id)
    on conflict (message_id) do nothing;
  end if;
  return null;
end $$;
create trigger messages_enqueue_embedding after insert or update of status on public.messages
  for each row execute function public.messages_enqueue_embedding();

-- Messages already stored wait for the indexer like new ones.
insert into public.message_embeddings (message_id, user_id, created_at)
select id, user_id, created_at from public.messages where status <> 'streaming';

-- Which versions an edit or a regenerated reply replaced, found per hit without scanning
-- the session (search demotes replaced versions below the live one).
create index messages_supersedes_idx on public.messages (session_id, supersedes_turn) where supersedes_turn is not null;
create index messages_restarts_idx on public.messages (session_id, turn_seq, seq) where restarts_turn;

-- Keyword lookups that use the GIN index under row-level security. A user's query on
-- messages gets the owner policy's qual first, and `@@` is not leakproof, so the planner may
-- not turn it into an index condition: it read every message of the user (via the user
-- filter) and tested each one, 40-60 ms at 25K messages and linear beyond. This function
-- runs as its owner (no RLS) and filters to the caller itself, auth.uid(), so it returns
-- nothing of anyone else and costs what the matches cost. Streaming replies are left out.
create function public.messages_matching(q tsquery)
returns table (id uuid, session_id uuid, seq integer, created_at timestamptz, rank real)
language sql stable security definer set search_path = '' as $$
  select m.id, m.session_id, m.seq, m.created_at, ts_rank_cd(m.search, q)
  from public.messages m
  where m.search @@ q and m.user_id = auth.uid() and m.status <> 'streaming'
$$;
revoke execute on function public.messages_matching(tsquery) from public;
grant execute on function public.messages_matching(tsquery) to authenticated;

alter table public.message_embeddings enable row level security;
create policy message_embeddings_owner on public.message_embeddings for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.message_embeddings to authenticated;
-- message_embeddings.message_id -> messages (see 20261123000001_rls_parent_ownership.sql).
create policy message_embeddings_parents_insert on public.message_embeddings as restrictive for insert to public
  with check (public.owns_message(message_id));
create policy message_embeddings_parents_update on public.message_embeddings as restrictive for update to public
  with check (public.owns_message(message_id));
