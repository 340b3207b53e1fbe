-- Memory across sessions: what earlier sessions decided, brought back when it matters.
-- pgvector holds the embeddings; full-text search covers exact terms the embedder may miss.
create extension if not exists vector;

create table public.session_memories (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  project_id uuid references public.projects (id) on delete set null,
  session_id uuid references public.sessions (id) on delete set null,
  source text not null check (source in ('compaction', 'archive', 'manual')),
  summary text not null check (length(summary) between 1 and 100000),
  key_decisions jsonb not null default '[]'::jsonb,
  code_references jsonb not null default '[]'::jsonb,
  tags text[] not null default '{}',
  pinned boolean not null default false,
  relevance_score real not null default 0,
  embedding vector(1024),
  embedding_model text not null,
  search tsvector generated always as (
    to_tsvector('english', left(summary, 100000) || ' ' || key_decisions::text || ' ' || code_references::text)
  ) stored,
  created_at timestamptz not null default now(),
  expires_at timestamptz
);
-- Search is per user and exact (a scan of one user's rows): measured faster than HNSW with
-- a user filter on PGlite, with perfect recall (see the memory benchmark in the README).
create index session_memories_user_idx on public.session_memories (user_id, embedding_model);
create index session_memories_project_idx on public.session_memories (project_id);
create index session_memories_session_idx on public.session_memories (session_id);
create index session_memories_search_idx on public.session_memories using gin (search);
create index session_memories_tags_idx on public.session_memories using gin (tags);
create index session_memories_expiry_idx on public.session_memories (expires_at) where not pinned;

-- Which memories a session started with; the user may drop one from the session.
create table public.session_loaded_memories (
  session_id uuid not null references public.sessions (id) on delete cascade,
  memory_id uuid not null references public.session_memories (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  tokens integer not null,
  score real not null,
  dropped boolean not null default false,
  loaded_at timestamptz not null default now(),
  primary key (session_id, memory_id)
);

alter table public.sessions
  add column memory_text text,
  add column memory_tokens integer not null default 0,
  add column memory_loaded_at timestamptz,
  add column archived_at timestamptz;

alter table public.user_settings
  add column memory_budget real check (memory_budget between 0 and 0.3),
  add column memory_ttl_days integer check (memory_ttl_days between 1 and 3650);

alter table public.session_memories enable row level security;
alter table public.session_loaded_memories enable row level security;
create policy session_memories_owner on public.session_memories for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy session_loaded_memories_owner on public.session_loaded_memories for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.session_memories, public.session_loaded_memories to authenticated;
