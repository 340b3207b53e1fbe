-- Memories of facts, not only of sessions: atomic facts (who, what, when, where, amounts,
-- preferences, plans, decisions) taken from the turns a compaction condenses or an archive
-- keeps, stored beside the session summaries so that memory search and the first-message
-- load find them with the same hybrid ranking, RLS policy, expiry and pinning.
alter table public.session_memories
  add column kind text not null default 'summary' check (kind in ('summary', 'fact')),
  -- Consolidation keys: a fact with the same subject and attribute and another value
  -- supersedes the stored one ("moved to Lisbon" after "lives in Porto").
  add column fact_subject text,
  add column fact_attribute text,
  add column fact_value text,
  -- Provenance: the messages of the session the fact was taken from.
  add column from_seq integer,
  add column through_seq integer,
  -- Validity: when it was said, and when a newer fact replaced it.
  add column valid_from timestamptz,
  add column valid_until timestamptz,
  -- The newer fact (no foreign key: a pointer among one user's own rows, cleared when that
  -- fact is deleted, so the older one counts again).
  add column superseded_by uuid,
  add column seen_count integer not null default 1 check (seen_count >= 1),
  add column last_seen_at timestamptz,
  add constraint session_memories_fact_shape check (
    kind = 'summary' or (fact_subject is not null and from_seq is not null and through_seq >= from_seq and valid_from is not null)
  );

-- Consolidation looks up a user's current facts by subject.
create index session_memories_facts_idx on public.session_memories (user_id, fact_subject)
  where kind = 'fact' and superseded_by is null;
