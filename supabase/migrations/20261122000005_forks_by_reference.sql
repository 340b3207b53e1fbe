-- Forks read their parent's history by reference instead of copying it. Messages are
-- immutable once complete, so a fork can see the source's rows through a seq range; only
-- the protected flag can differ per session, and that lives in inherited_protection.
-- Seqs stay one contiguous sequence per session: a fork at seq N inherits 1..N and its own
-- messages start at N + 1.

create table public.session_lineage (
  session_id uuid not null references public.sessions (id) on delete cascade,
  -- No cascade: deleting a source first copies the rows its forks still need
  -- (lib/db/forks.ts), so a fork never silently loses history.
  source_session_id uuid not null references public.sessions (id),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  from_seq integer not null,
  to_seq integer not null check (to_seq >= from_seq),
  primary key (session_id, from_seq)
);
create index session_lineage_source_idx on public.session_lineage (source_session_id);

-- An inherited message is protected in a fork exactly when a row here says so.
create table public.inherited_protection (
  session_id uuid not null references public.sessions (id) on delete cascade,
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  primary key (session_id, message_id)
);
create index inherited_protection_message_idx on public.inherited_protection (message_id);

-- Finds a reply still streaming without scanning a session's history.
create index messages_streaming_idx on public.messages (session_id, seq) where status = 'streaming';

-- A session's whole history as one relation: its own rows, then what it inherits (shown
-- under its own id, with its own protection). A single SELECT, so the planner inlines it
-- and pushes seq/turn predicates into both arms' indexes.
create function public.session_messages(sid uuid)
returns table (
  id uuid, session_id uuid, user_id uuid, seq integer, turn_seq integer, role text, content jsonb, text text,
  token_count integer, protected boolean, status text, idempotency_key text, created_at timestamptz, search tsvector
) language sql stable as $$
  select m.id, m.session_id, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count, m.protected,
    m.status, m.idempotency_key, m.created_at, m.search
  from public.messages m where m.session_id = sid
  union all
  select m.id, sid, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count,
    -- One lookup of the fork's (few) protected ids, not a probe per inherited row.
    m.id = any (array(select p.message_id from public.inherited_protection p where p.session_id = sid)),
    m.status, null, m.created_at, m.search
  from public.session_lineage l
  join public.messages m on m.session_id = l.source_session_id and m.seq between l.from_seq and l.to_seq
  where l.session_id = sid
$$;

-- The turns holding a protected message in a session's view, found through the small
-- protected sets rather than by scanning the history.
create function public.session_protected_turns(sid uuid)
returns table (turn_seq integer) language sql stable as $$
  select m.turn_seq from public.messages m where m.session_id = sid and m.protected
  union all
  select m.turn_seq from public.inherited_protection p join public.messages m on m.id = p.message_id
  where p.session_id = sid
$$;

alter table public.session_lineage enable row level security;
alter table public.inherited_protection enable row level security;
create policy session_lineage_owner on public.session_lineage for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy inherited_protection_owner on public.inherited_protection for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.session_lineage, public.inherited_protection to authenticated;
grant execute on function public.session_messages(uuid), public.session_protected_turns(uuid) to authenticated;
