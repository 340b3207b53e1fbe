-- The audit log: one event per context operation, written in the operation's own
-- transaction (no operation without its event). Append-only: a user reads their own events;
-- with no update or delete policy, nobody changes one through the app, and a trigger refuses
-- updates even from the tables' owner. Deleting a user removes their events (cascade).
create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  occurred_at timestamptz not null default clock_timestamp(),
  -- Dotted, lower case: compaction.applied, checkpoint.deleted, key.revoked, ...
  action text not null check (action ~ '^[a-z_]+(\.[a-z_]+)+$'),
  actor_type text not null check (actor_type in ('user', 'key', 'system')),
  actor_id text,
  actor_name text,
  target_type text,
  target_id text,
  request_id text,
  ip text,
  user_agent text,
  metadata jsonb not null default '{}'::jsonb check (octet_length(metadata::text) <= 4096)
);
create index audit_log_user_time_idx on public.audit_log (user_id, occurred_at desc, id desc);
create index audit_log_user_target_idx on public.audit_log (user_id, target_id, occurred_at desc);

create function public.audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the audit log is append-only (event %)', old.id using errcode = 'check_violation';
end $$;
create trigger audit_log_append_only before update on public.audit_log
  for each row execute function public.audit_log_append_only();

alter table public.audit_log enable row level security;
create policy audit_log_owner_select on public.audit_log for select to authenticated using (user_id = auth.uid());
create policy audit_log_owner_insert on public.audit_log for insert to authenticated with check (user_id = auth.uid());
grant select, insert, update, delete on public.audit_log to authenticated;
