-- Live sessions (docs/architecture.md#live-sessions): every change that someone viewing a session
-- must see advances the session's event_seq and is announced on the channel tk_session, by a
-- trigger, in the transaction that makes the change. NOTIFY is delivered at commit and never for a
-- transaction that rolls back, and the row lock on the session orders the numbers as the commits:
-- a viewer that saw number n has seen every change up to n. Triggers rather than calls in the
-- code, so that a new kind of writer (an edit of any message, a fork, a recovery) is covered too.
--
-- Payload (well under NOTIFY's 8000 bytes): {"s": session, "u": its owner, "n": event_seq,
-- "k": "messages" | "session" | "compactions" | "checkpoints" | "canvas", "f": for messages, the
-- lowest seq added or changed}. A reply's text as it streams is announced by the app itself
-- (lib/turn/live-deltas.ts) without a number: it is not stored until the reply's row is.
alter table public.sessions add column event_seq bigint not null default 0;

create function public.session_event(p_session uuid, p_kind text, p_from integer) returns void
language plpgsql as $$
declare
  n bigint;
  u uuid;
begin
  update public.sessions set event_seq = event_seq + 1 where id = p_session returning event_seq, user_id into n, u;
  -- The session is being deleted in this transaction (a cascade): nobody is left to tell.
  if n is null then return; end if;
  perform pg_notify('tk_session', json_build_object('s', p_session, 'u', u, 'n', n, 'k', p_kind, 'f', p_from)::text);
end $$;

-- Messages: one event per session and statement (a history imported in one statement is one).
create function public.messages_added_event() returns trigger language plpgsql as $$
declare r record;
begin
  for r in select session_id, min(seq) as f from changed group by session_id order by session_id loop
    perform public.session_event(r.session_id, 'messages', r.f);
  end loop;
  return null;
end $$;
create trigger messages_added_event after insert on public.messages
  referencing new table as changed for each statement execute function public.messages_added_event();

-- A streaming reply's text saved every second is not an event (its deltas are); its end, a
-- change of its protected flag, or a recovery that marks it interrupted is.
create function public.messages_changed_event() returns trigger language plpgsql as $$
declare r record;
begin
  for r in
    select c.session_id, min(c.seq) as f from changed c join before b on b.id = c.id
    where b.status <> c.status or b.protected <> c.protected
    group by c.session_id order by c.session_id
  loop
    perform public.session_event(r.session_id, 'messages', r.f);
  end loop;
  return null;
end $$;
create trigger messages_changed_event after update on public.messages
  referencing old table as before new table as changed for each statement execute function public.messages_changed_event();

create function public.session_row_event() returns trigger language plpgsql as $$
begin
  perform public.session_event(new.session_id, tg_argv[0], null);
  return null;
end $$;
create trigger compaction_logs_event after insert or update on public.compaction_logs
  for each row execute function public.session_row_event('compactions');
create trigger session_checkpoints_event after insert on public.session_checkpoints
  for each row execute function public.session_row_event('checkpoints');
create trigger canvas_events_event after insert on public.canvas_events
  for each row execute function public.session_row_event('canvas');

-- What the session list and the header show: its own row, so the number is advanced in place
-- (an update of the row from its own trigger would recurse).
create function public.sessions_shown_event() returns trigger language plpgsql as $$
begin
  new.event_seq := old.event_seq + 1;
  perform pg_notify('tk_session', json_build_object('s', new.id, 'u', new.user_id, 'n', new.event_seq, 'k', 'session', 'f', null)::text);
  return new;
end $$;
create trigger sessions_shown_event before update on public.sessions
  for each row when (
    old.title is distinct from new.title or old.model is distinct from new.model
    or old.settings is distinct from new.settings or old.system_prompt is distinct from new.system_prompt
    or old.project_id is distinct from new.project_id or old.archived_at is distinct from new.archived_at
    or old.pinned_at is distinct from new.pinned_at
  ) execute function public.sessions_shown_event();
