-- Files in the conversation (issue 31): the private Supabase Storage bucket that keeps attached
-- files' bytes (lib/storage/supabase.ts), one object per user and digest at `<user id>/<sha256>`.
--
-- The server reaches the bucket with the service key, which bypasses RLS: it has already checked
-- who is asking. The policies below are the second lock, for anyone reaching Storage directly
-- with a user's token (the publishable key and a session): a signed-in user may read, add and
-- remove only objects of this bucket whose first folder is their own id; these policies grant
-- nothing else (anon gets none). No update policy: objects never change under their digest.
--
-- Only where Supabase Storage exists. The same migrations run on the embedded database (PGlite)
-- and on plain PostgreSQL, which have no `storage` schema (there the local store keeps files in a
-- folder), so every statement naming storage.* is dynamic SQL: parsed only once the schema is
-- known to be there, never where it would fail to resolve.
do $$
begin
  if to_regclass('storage.buckets') is null or to_regclass('storage.objects') is null then
    return;
  end if;

  -- Private (no public URLs). Set private again if someone created it public by hand before.
  execute $sql$
    insert into storage.buckets (id, name, public) values ('threadkeeper-files', 'threadkeeper-files', false)
    on conflict (id) do update set public = false
  $sql$;
  -- The largest file the app accepts (MAX_FILE_BYTES in lib/contract/files.ts: a 32 MB PDF), where
  -- this Storage version has per-bucket limits.
  if exists (select 1 from information_schema.columns
             where table_schema = 'storage' and table_name = 'buckets' and column_name = 'file_size_limit') then
    execute $sql$ update storage.buckets set file_size_limit = 33554432 where id = 'threadkeeper-files' $sql$;
  end if;

  -- `(select auth.uid())`: evaluated once per statement, not once per row (Supabase's advice).
  execute $sql$ drop policy if exists "threadkeeper files: owner reads" on storage.objects $sql$;
  execute $sql$
    create policy "threadkeeper files: owner reads" on storage.objects for select to authenticated
    using (bucket_id = 'threadkeeper-files' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;
  execute $sql$ drop policy if exists "threadkeeper files: owner adds" on storage.objects $sql$;
  execute $sql$
    create policy "threadkeeper files: owner adds" on storage.objects for insert to authenticated
    with check (bucket_id = 'threadkeeper-files' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;
  execute $sql$ drop policy if exists "threadkeeper files: owner removes" on storage.objects $sql$;
  execute $sql$
    create policy "threadkeeper files: owner removes" on storage.objects for delete to authenticated
    using (bucket_id = 'threadkeeper-files' and (storage.foldername(name))[1] = (select auth.uid())::text)
  $sql$;
end $$;
