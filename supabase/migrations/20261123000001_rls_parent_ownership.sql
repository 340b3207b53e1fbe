-- Row-level security also checks the rows a row points at. The owner policies say only
-- `user_id = auth.uid()`, so a user could write a row of their own that references someone
-- else's session, project, memory, ...: a message into another user's session (taking one of
-- its seq numbers), a checkpoint or compaction log on it, a loaded memory, a fork's lineage
-- (which would also keep the other user from deleting that session), a session in another
-- user's project. The app's queries filter by user and never do that; RLS is the second lock
-- and now refuses it too.
--
-- Foreign keys between user-owned tables (every other foreign key points at auth.users):
--   sessions.project_id -> projects          sessions.parent_session_id -> sessions
--   sessions.summary_id -> compaction_logs   sessions.forked_from_checkpoint_id -> session_checkpoints
--   messages.session_id -> sessions
--   compaction_logs.session_id -> sessions   compaction_logs.prev_compaction_id -> compaction_logs
--   session_checkpoints.session_id -> sessions   session_checkpoints.summary_id -> compaction_logs
--   session_memories.project_id -> projects  session_memories.session_id -> sessions
--   session_loaded_memories.session_id -> sessions   session_loaded_memories.memory_id -> session_memories
--   session_lineage.session_id -> sessions   session_lineage.source_session_id -> sessions
--   inherited_protection.session_id -> sessions   inherited_protection.message_id -> messages
-- user_settings, model_calibrations, projects and prompt_templates reference only auth.users.
--
-- Each table above gets two restrictive policies, one for INSERT and one for UPDATE (so both
-- sides of INSERT ... ON CONFLICT DO UPDATE are covered), with the same check: every parent the
-- new row references, when not null, belongs to auth.uid(). Restrictive, so they are ANDed with
-- the owner policy and never widen it; reads and deletes stay with the owner policy alone.
-- `to public`, so they hold for every role RLS applies to. The app's own role (the tables'
-- owner: superuser in PGlite, BYPASSRLS on Supabase) and the foreign keys' ON DELETE actions
-- (which run as the owner) are not subject to RLS.
--
-- The checks call one small function per parent table rather than writing EXISTS subqueries
-- into the policies: PostgreSQL plans a policy's subqueries again with every statement, which
-- measured about 1 ms more planning per UPDATE of sessions on PGlite (four subqueries) and
-- 0.3 ms per message insert, while a PL/pgSQL function's query is planned once per connection
-- and then costs one primary-key probe per call. The functions are security invoker: they run
-- as the caller, so the parent table's own owner policy applies inside them too (it says the
-- same thing), and they tell a caller nothing the caller could not select anyway. STABLE: they
-- see the statement's snapshot, like an EXISTS subquery would.

create function public.owns_session(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.sessions t where t.id = target and t.user_id = auth.uid());
end $$;

create function public.owns_project(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.projects t where t.id = target and t.user_id = auth.uid());
end $$;

create function public.owns_compaction_log(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.compaction_logs t where t.id = target and t.user_id = auth.uid());
end $$;

create function public.owns_checkpoint(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.session_checkpoints t where t.id = target and t.user_id = auth.uid());
end $$;

create function public.owns_memory(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.session_memories t where t.id = target and t.user_id = auth.uid());
end $$;

create function public.owns_message(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.messages t where t.id = target and t.user_id = auth.uid());
end $$;

-- sessions
create policy sessions_parents_insert on public.sessions as restrictive for insert to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (parent_session_id is null or public.owns_session(parent_session_id))
    and (summary_id is null or public.owns_compaction_log(summary_id))
    and (forked_from_checkpoint_id is null or public.owns_checkpoint(forked_from_checkpoint_id)));
create policy sessions_parents_update on public.sessions as restrictive for update to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (parent_session_id is null or public.owns_session(parent_session_id))
    and (summary_id is null or public.owns_compaction_log(summary_id))
    and (forked_from_checkpoint_id is null or public.owns_checkpoint(forked_from_checkpoint_id)));

-- messages
create policy messages_parents_insert on public.messages as restrictive for insert to public
  with check (public.owns_session(session_id));
create policy messages_parents_update on public.messages as restrictive for update to public
  with check (public.owns_session(session_id));

-- compaction_logs
create policy compaction_logs_parents_insert on public.compaction_logs as restrictive for insert to public
  with check (
    public.owns_session(session_id)
    and (prev_compaction_id is null or public.owns_compaction_log(prev_compaction_id)));
create policy compaction_logs_parents_update on public.compaction_logs as restrictive for update to public
  with check (
    public.owns_session(session_id)
    and (prev_compaction_id is null or public.owns_compaction_log(prev_compaction_id)));

-- session_checkpoints
create policy session_checkpoints_parents_insert on public.session_checkpoints as restrictive for insert to public
  with check (
    public.owns_session(session_id)
    and (summary_id is null or public.owns_compaction_log(summary_id)));
create policy session_checkpoints_parents_update on public.session_checkpoints as restrictive for update to public
  with check (
    public.owns_session(session_id)
    and (summary_id is null or public.owns_compaction_log(summary_id)));

-- session_memories
create policy session_memories_parents_insert on public.session_memories as restrictive for insert to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (session_id is null or public.owns_session(session_id)));
create policy session_memories_parents_update on public.session_memories as restrictive for update to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (session_id is null or public.owns_session(session_id)));

-- session_loaded_memories
create policy session_loaded_memories_parents_insert on public.session_loaded_memories as restrictive for insert to public
  with check (public.owns_session(session_id) and public.owns_memory(memory_id));
create policy session_loaded_memories_parents_update on public.session_loaded_memories as restrictive for update to public
  with check (public.owns_session(session_id) and public.owns_memory(memory_id));

-- session_lineage: both the fork and the session it reads from.
create policy session_lineage_parents_insert on public.session_lineage as restrictive for insert to public
  with check (public.owns_session(session_id) and public.owns_session(source_session_id));
create policy session_lineage_parents_update on public.session_lineage as restrictive for update to public
  with check (public.owns_session(session_id) and public.owns_session(source_session_id));

-- inherited_protection
create policy inherited_protection_parents_insert on public.inherited_protection as restrictive for insert to public
  with check (public.owns_session(session_id) and public.owns_message(message_id));
create policy inherited_protection_parents_update on public.inherited_protection as restrictive for update to public
  with check (public.owns_session(session_id) and public.owns_message(message_id));
