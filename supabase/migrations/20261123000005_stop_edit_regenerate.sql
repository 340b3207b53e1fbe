-- Stop, edit and regenerate without deleting anything: the history stays append-only.
-- An edited message is a new turn that names the turn it replaces (supersedes_turn); a
-- regenerated reply is an assistant message that restarts its turn's reply (restarts_turn).
-- What they replace stays in the history, shown as earlier versions, and is left out of what
-- Claude is sent. A stop is requested on the session so whichever instance streams the reply
-- sees it within a second.
alter table public.messages
  add column supersedes_turn integer check (supersedes_turn >= 1),
  add column restarts_turn boolean not null default false;
alter table public.sessions add column stop_requested_at timestamptz;

drop function public.session_messages(uuid);
create function public.session_messages(sid uuid)
returns table (
  id uuid, session_id uuid, user_id uuid, seq integer, turn_seq integer, role text, content jsonb, text text,
  token_count integer, protected boolean, status text, idempotency_key text, created_at timestamptz, search tsvector,
  supersedes_turn integer, restarts_turn boolean
) language sql stable as $$
  select m.id, m.session_id, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count, m.protected,
    m.status, m.idempotency_key, m.created_at, m.search, m.supersedes_turn, m.restarts_turn
  from public.messages m where m.session_id = sid
  union all
  select m.id, sid, m.user_id, m.seq, m.turn_seq, m.role, m.content, m.text, m.token_count,
    -- One lookup of the fork's (few) protected ids, not a probe per inherited row.
    m.id = any (array(select p.message_id from public.inherited_protection p where p.session_id = sid)),
    m.status, null, m.created_at, m.search, m.supersedes_turn, m.restarts_turn
  from public.session_lineage l
  join public.messages m on m.session_id = l.source_session_id and m.seq between l.from_seq and l.to_seq
  where l.session_id = sid
$$;
grant execute on function public.session_messages(uuid) to authenticated;
