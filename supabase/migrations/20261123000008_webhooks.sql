-- Webhooks: a user's endpoints and the deliveries queued for them. A delivery is written in
-- the same transaction as the event it reports, so it survives a restart and never waits
-- for the receiver; a worker sends it, signed, and retries with backoff.
create table public.webhooks (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  url text not null check (length(url) <= 2000),
  events text[] not null check (cardinality(events) between 1 and 20),
  -- Needed in the clear to sign each delivery; shown to the user once, at creation.
  secret text not null check (length(secret) between 16 and 200),
  created_at timestamptz not null default now()
);
create index webhooks_user_idx on public.webhooks (user_id);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  webhook_id uuid not null references public.webhooks (id) on delete cascade,
  event text not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivering', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_status_code integer,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status in ('pending', 'delivering');
create index webhook_deliveries_webhook_idx on public.webhook_deliveries (webhook_id, created_at desc);

alter table public.webhooks enable row level security;
alter table public.webhook_deliveries enable row level security;
create policy webhooks_owner on public.webhooks for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy webhook_deliveries_owner on public.webhook_deliveries for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.webhooks, public.webhook_deliveries to authenticated;

-- A delivery may point only at its own user's webhook (as every other reference between
-- user tables, migration 20261123000001).
create function public.owns_webhook(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.webhooks t where t.id = target and t.user_id = auth.uid());
end $$;
create policy webhook_deliveries_parents_insert on public.webhook_deliveries as restrictive for insert to public
  with check (public.owns_webhook(webhook_id));
create policy webhook_deliveries_parents_update on public.webhook_deliveries as restrictive for update to public
  with check (public.owns_webhook(webhook_id));
