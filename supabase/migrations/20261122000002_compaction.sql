-- Compaction: incremental summaries that stand in for condensed turns, their log, undo,
-- a database-enforced cooldown for manual compactions, and saved prompt templates.

alter table public.user_settings
  add column auto_compact boolean,
  add column compaction_target real check (compaction_target between 0.1 and 0.7),
  add column summary_model text,
  add column compaction_template text;

create table public.compaction_logs (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.sessions (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  trigger text not null check (trigger in ('manual', 'auto', 'error_recovery')),
  method text not null check (method in ('llm', 'extractive', 'sliding')),
  status text not null default 'applied' check (status in ('applied', 'reverted', 'superseded')),
  from_turn integer not null,
  through_turn integer not null,
  at_seq integer not null,
  -- The state this compaction replaced, so undo restores it exactly.
  prev_compaction_id uuid references public.compaction_logs (id) on delete set null,
  prev_window_start_turn integer not null,
  summary text,
  summary_tokens integer not null default 0,
  summary_preview text not null default '',
  items_total integer not null default 0,
  retention_rate real not null default 1,
  preserved_items jsonb not null default '[]'::jsonb,
  omitted_items jsonb not null default '[]'::jsonb,
  pre_tokens integer not null,
  post_tokens integer not null,
  reduction_percent real not null,
  messages_condensed integer not null,
  model text,
  template text not null default 'general',
  instructions text,
  duration_ms integer not null,
  cost_usd double precision not null default 0,
  usage jsonb,
  fallback_reason text,
  -- Turn number of the session when it ran: thrash detection compares these.
  at_turn integer not null,
  created_at timestamptz not null default now()
);
create index compaction_logs_session_idx on public.compaction_logs (session_id, created_at);

alter table public.sessions
  add column summary_id uuid references public.compaction_logs (id) on delete set null,
  add column summary_text text,
  add column summary_tokens integer not null default 0,
  add column summary_through_turn integer not null default 0,
  add column last_manual_compaction_at timestamptz;

create table public.prompt_templates (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  body text not null check (length(body) between 1 and 20000),
  created_at timestamptz not null default now(),
  unique (user_id, name)
);

alter table public.compaction_logs enable row level security;
alter table public.prompt_templates enable row level security;
create policy compaction_logs_owner on public.compaction_logs for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy prompt_templates_owner on public.prompt_templates for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.compaction_logs, public.prompt_templates to authenticated;
