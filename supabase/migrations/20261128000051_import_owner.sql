-- A session names the import that made it (20261128000050); row-level security checks that the
-- import is the user's own, like every other parent a session points at (20261123000001): the
-- sessions' parent policies are made again with one more clause.
create function public.owns_import(target uuid) returns boolean
  language plpgsql stable set search_path = '' as $$
begin
  return exists (select 1 from public.imports t where t.id = target and t.user_id = auth.uid());
end $$;

drop policy sessions_parents_insert on public.sessions;
drop policy sessions_parents_update on public.sessions;
create policy sessions_parents_insert on public.sessions as restrictive for insert to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (parent_session_id is null or public.owns_session(parent_session_id))
    and (summary_id is null or public.owns_compaction_log(summary_id))
    and (forked_from_checkpoint_id is null or public.owns_checkpoint(forked_from_checkpoint_id))
    and (import_id is null or public.owns_import(import_id)));
create policy sessions_parents_update on public.sessions as restrictive for update to public
  with check (
    (project_id is null or public.owns_project(project_id))
    and (parent_session_id is null or public.owns_session(parent_session_id))
    and (summary_id is null or public.owns_compaction_log(summary_id))
    and (forked_from_checkpoint_id is null or public.owns_checkpoint(forked_from_checkpoint_id))
    and (import_id is null or public.owns_import(import_id)));
