-- A demo tenant, so that a first look at a fresh local stack shows what Threadkeeper keeps:
-- `supabase db reset` runs this after the migrations (config.toml, [db.seed]). Sign in at
-- http://localhost:3000 as demo@threadkeeper.local with the password threadkeeper-demo.
--
-- One session of eight turns (a project: moving file uploads to S3 multipart), whose turns 2-5
-- were condensed by an applied compaction (turn 1 stays pinned, turns 6-8 are the window), two
-- checkpoints (one before the compaction, one after the last turn) and three memories.
-- Memories are seeded without vectors: full-text search finds them, and `npm run
-- memory:reembed` gives them embeddings. tests/pg/seed.test.ts applies this file after the
-- migrations and reads it back through the app, as the demo user, under row-level security.

-- The user. On Supabase (auth.identities exists) as Supabase Auth itself writes one, with a
-- password and an email identity; on a bare auth schema (the test suite's) just the row.
do $$
declare
  uid constant uuid := 'de300000-0000-4000-8000-000000000001';
  mail constant text := 'demo@threadkeeper.local';
begin
  if to_regclass('auth.identities') is not null then
    execute $sql$
      insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
        confirmation_token, recovery_token, email_change_token_new, email_change)
      values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
        extensions.crypt('threadkeeper-demo', extensions.gen_salt('bf')), now(),
        '{"provider": "email", "providers": ["email"]}', '{}', now(), now(), '', '', '', '')
      on conflict (id) do nothing
    $sql$ using uid, mail;
    execute $sql$
      insert into auth.identities (id, user_id, provider_id, provider, identity_data, last_sign_in_at, created_at, updated_at)
      select gen_random_uuid(), $1, $1::text, 'email',
        jsonb_build_object('sub', $1::text, 'email', $2, 'email_verified', true), now(), now(), now()
      where not exists (select 1 from auth.identities where user_id = $1 and provider = 'email')
    $sql$ using uid, mail;
  else
    insert into auth.users (id, email) values (uid, mail) on conflict (id) do nothing;
  end if;
end $$;

insert into public.projects (id, user_id, name, created_at)
values ('de300000-0000-4000-8000-0000000000a1', 'de300000-0000-4000-8000-000000000001', 'Uploads', now() - interval '3 days');

insert into public.sessions (id, user_id, title, title_source, model, project_id, system_prompt, system_tokens, created_at, updated_at)
values (
  'de300000-0000-4000-8000-000000000051',
  'de300000-0000-4000-8000-000000000001',
  'Moving uploads to S3 multipart',
  'user',
  'claude-sonnet-4-5',
  'de300000-0000-4000-8000-0000000000a1',
  'You are Claude, working with the user inside Threadkeeper, a workspace for long conversations. Be precise and keep track of decisions, file paths and open tasks.',
  32,
  now() - interval '2 hours',
  now() - interval '2 hours'
);

-- Eight turns, a user message and Claude's reply each; every message is immutable once written.
insert into public.messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status, model, created_at, updated_at)
select
  'de300000-0000-4000-8000-000000000051',
  'de300000-0000-4000-8000-000000000001',
  t.seq,
  (t.seq + 1) / 2,
  case when t.seq % 2 = 1 then 'user' else 'assistant' end,
  jsonb_build_array(jsonb_build_object('type', 'text', 'text', t.body)),
  t.body,
  ceil(length(t.body) / 4.0)::int + 4,
  'complete',
  case when t.seq % 2 = 0 then 'claude-sonnet-4-5' end,
  now() - interval '2 hours' + t.seq * interval '6 minutes',
  now() - interval '2 hours' + t.seq * interval '6 minutes'
from (values
  (1, 'Our uploads go through the Next.js server today: app/api/upload/route.ts buffers the whole file and then calls PutObject. Files over 100 MB time out on Vercel. I want to move to S3 multipart uploads straight from the browser. Can you help me plan it?'),
  (2, 'Yes. The usual shape: the server creates the multipart upload and signs one URL per part, the browser PUTs the parts directly to S3, and the server completes the upload with the parts'' ETags. Three routes: POST /api/uploads (CreateMultipartUpload, returns uploadId and key), POST /api/uploads/{id}/parts (presigned UploadPart URLs for a batch of part numbers), POST /api/uploads/{id}/complete (CompleteMultipartUpload). Parts must be at least 5 MiB except the last. Shall we start with the bucket''s CORS rules, since the browser will talk to S3 directly?'),
  (3, 'Start with CORS. The bucket is tk-uploads-prod in eu-west-1, and the app is served from https://app.example.com.'),
  (4, 'The bucket needs a CORS rule allowing PUT from https://app.example.com and, importantly, exposing the ETag header: without ExposeHeaders ["ETag"] the browser cannot read each part''s ETag and the complete call has nothing to send. AllowedHeaders ["content-type"] is enough, MaxAgeSeconds 3000 keeps preflights rare. Put it in infra/s3-cors.json and apply it with aws s3api put-bucket-cors --bucket tk-uploads-prod --cors-configuration file://infra/s3-cors.json.'),
  (5, 'Done, CORS is applied. What part size should we use? Some of our customers upload 20 GB video files.'),
  (6, 'S3 allows at most 10,000 parts, so 20 GB needs parts of at least 2 MiB, and the 5 MiB minimum already covers that; but fewer, larger parts mean fewer signed URLs and requests. Decision proposal: 16 MiB parts (PART_SIZE = 16 * 1024 * 1024 in lib/uploads/config.ts), 4 parts in flight per upload, each part retried 3 times with exponential backoff. A 20 GB file is then 1,280 parts. Sign URLs in batches of 50 so the browser never holds thousands of URLs that may expire (15 minutes).'),
  (7, 'Agreed: 16 MiB parts, 4 concurrent, 3 retries. One more thing: if a user closes the tab mid-upload, the parts stay in S3 and we pay for them.'),
  (8, 'Right: incomplete multipart uploads are billed until aborted. Two safeguards. First, a lifecycle rule on the bucket, AbortIncompleteMultipartUpload after 1 day (infra/s3-lifecycle.json). Second, record each upload in an uploads table (id, key, upload_id, status, created_at) and let a nightly job abort those still pending after 24 hours, so the app''s view and S3 agree. Resuming after a closed tab is then possible too: ListParts tells the browser which parts already arrived.'),
  (9, 'Good. Let''s write the route that creates the upload. We use the AWS SDK v3.'),
  (10, 'app/api/uploads/route.ts: validate { filename, size, content_type } with zod (reject size above 50 GB), build the key as users/{userId}/{uuid}/{filename}, call CreateMultipartUploadCommand with Bucket tk-uploads-prod and ContentType, insert the uploads row with status pending, and answer 201 { upload_id, key, part_size: 16777216, parts: Math.ceil(size / part_size) }. The S3Client is created once in lib/uploads/s3.ts with region eu-west-1.'),
  (11, 'Then the parts route. How do we keep users from signing URLs for someone else''s upload?'),
  (12, 'app/api/uploads/[id]/parts/route.ts looks the upload up by id and user_id together (a row of another user is a 404, like one that does not exist), refuses part numbers outside 1..parts, and signs UploadPartCommand URLs with getSignedUrl(client, command, { expiresIn: 900 }) for at most 50 part numbers per request. The key comes from our row, never from the request, so a user can only ever sign parts of their own object.'),
  (13, 'And completing it? I saw an error "InvalidPart: One or more of the specified parts could not be found" in my first test.'),
  (14, 'That error means the ETags or part numbers sent to CompleteMultipartUpload do not match what S3 stored. The usual causes: ETags read without their quotes stripped inconsistently, a part retried after a newer attempt succeeded, or parts listed out of order. Send the parts sorted by PartNumber with the ETag exactly as S3 returned it (quotes included), and on the server prefer ListParts over the browser''s list: app/api/uploads/[id]/complete/route.ts calls ListPartsCommand, checks that every part from 1 to parts is there, then completes and marks the row complete.'),
  (15, 'That fixed it: the 20 GB test file went through in 11 minutes. What is left?'),
  (16, 'Still open: (1) the nightly abort job for uploads pending over 24 hours, (2) a resume button that calls ListParts and uploads only the missing parts, (3) removing the old buffering route app/api/upload/route.ts once the new flow is live, and (4) a note in docs/uploads.md on the 16 MiB part size and the CORS ExposeHeaders ETag requirement.')
) as t(seq, body);

-- The session row's counters, as the app keeps them while it appends.
update public.sessions s set
  next_seq = m.last_seq + 1,
  last_turn_seq = m.last_turn,
  message_count = m.n,
  tail_tokens = m.tokens,
  last_message_at = m.last_at,
  updated_at = m.last_at,
  last_message_preview = m.preview
from (
  select count(*)::int as n, max(seq) as last_seq, max(turn_seq) as last_turn, sum(token_count)::int as tokens,
    max(created_at) as last_at, (array_agg(left(text, 200) order by seq desc))[1] as preview
  from public.messages where session_id = 'de300000-0000-4000-8000-000000000051'
) m
where s.id = 'de300000-0000-4000-8000-000000000051';

-- A checkpoint before the compaction: through turn 4, the whole history still in the window.
insert into public.session_checkpoints (id, session_id, user_id, label, trigger, auto_tags, through_seq, through_turn,
  window_start_turn, token_count, created_at)
select 'de300000-0000-4000-8000-000000000e01', 'de300000-0000-4000-8000-000000000051', 'de300000-0000-4000-8000-000000000001',
  'Plan agreed: 16 MiB parts', 'manual', '{decision}', 8, 4, 1,
  32 + (select sum(token_count)::int from public.messages where session_id = 'de300000-0000-4000-8000-000000000051' and seq <= 8),
  now() - interval '2 hours' + 8 * interval '6 minutes' + interval '1 minute';

-- The compaction that ran after turn 6: turns 2-5 condensed into a verified summary; turn 1 is
-- always kept, and the window starts at turn 6.
insert into public.compaction_logs (id, session_id, user_id, trigger, method, status, from_turn, through_turn, at_seq,
  prev_window_start_turn, summary, summary_tokens, summary_preview, items_total, retention_rate, preserved_items,
  pre_tokens, post_tokens, reduction_percent, messages_condensed, model, template, duration_ms, cost_usd, at_turn, created_at)
values (
  'de300000-0000-4000-8000-0000000000c1',
  'de300000-0000-4000-8000-000000000051',
  'de300000-0000-4000-8000-000000000001',
  'auto', 'llm', 'applied', 2, 5, 12, 1,
  E'### Session Summary\nPlanning the move of file uploads from the buffering route app/api/upload/route.ts to S3 multipart uploads made directly from the browser.\n\n### Key Decisions\n- Three routes: POST /api/uploads, POST /api/uploads/{id}/parts, POST /api/uploads/{id}/complete.\n- Bucket tk-uploads-prod (eu-west-1) CORS allows PUT from https://app.example.com and exposes ETag (infra/s3-cors.json).\n- Parts of 16 MiB (PART_SIZE in lib/uploads/config.ts), 4 in flight, 3 retries with backoff; URLs signed in batches of 50, valid 15 minutes.\n- Incomplete uploads: lifecycle rule AbortIncompleteMultipartUpload after 1 day (infra/s3-lifecycle.json) and an uploads table with a nightly abort job.\n\n### Files Modified\n- infra/s3-cors.json\n- infra/s3-lifecycle.json\n- lib/uploads/config.ts\n\n### Pending Items\n- The uploads table and the nightly abort job.\n\n### Important Context\n- Customers upload files up to 20 GB; S3 allows at most 10,000 parts of at least 5 MiB (except the last).',
  210,
  'Planning the move of file uploads from the buffering route app/api/upload/route.ts to S3 multipart uploads made directly from the browser.',
  6, 1,
  '[{"kind": "file_path", "text": "infra/s3-cors.json"}, {"kind": "file_path", "text": "infra/s3-lifecycle.json"}, {"kind": "file_path", "text": "lib/uploads/config.ts"}, {"kind": "decision", "text": "16 MiB parts, 4 concurrent, 3 retries"}, {"kind": "url", "text": "https://app.example.com"}, {"kind": "config_value", "text": "PART_SIZE = 16 * 1024 * 1024"}]',
  (select sum(token_count)::int from public.messages where session_id = 'de300000-0000-4000-8000-000000000051' and seq <= 12) + 32,
  (select sum(token_count)::int from public.messages where session_id = 'de300000-0000-4000-8000-000000000051' and (turn_seq = 1 or turn_seq >= 6) and seq <= 12) + 32 + 210,
  0, 8, 'claude-haiku-4-5', 'general', 4200, 0.0021, 6,
  now() - interval '2 hours' + 12 * interval '6 minutes' + interval '1 minute'
);
update public.compaction_logs set reduction_percent = round((100.0 * (pre_tokens - post_tokens) / pre_tokens)::numeric, 1)
where id = 'de300000-0000-4000-8000-0000000000c1';

-- The session points at the summary; the window's counters follow (as the app's installSummary does).
update public.sessions set
  summary_id = 'de300000-0000-4000-8000-0000000000c1',
  summary_text = (select summary from public.compaction_logs where id = 'de300000-0000-4000-8000-0000000000c1'),
  summary_tokens = 210,
  summary_through_turn = 5,
  window_start_turn = 6,
  tail_tokens = (select sum(token_count)::int from public.messages where session_id = 'de300000-0000-4000-8000-000000000051' and turn_seq >= 6),
  pinned_tokens = (select sum(token_count)::int from public.messages where session_id = 'de300000-0000-4000-8000-000000000051' and turn_seq = 1)
where id = 'de300000-0000-4000-8000-000000000051';

-- A checkpoint after the last turn: a pointer to the summary and the window as they are now.
insert into public.session_checkpoints (id, session_id, user_id, label, trigger, auto_tags, through_seq, through_turn,
  window_start_turn, summary_id, summary_text, summary_tokens, summary_through_turn, token_count, created_at)
select 'de300000-0000-4000-8000-000000000e02', s.id, s.user_id, 'Uploads work end to end', 'auto', '{file,decision}',
  s.next_seq - 1, s.last_turn_seq, s.window_start_turn, s.summary_id, s.summary_text, s.summary_tokens, s.summary_through_turn,
  s.system_tokens + s.pinned_tokens + s.summary_tokens + s.tail_tokens, s.last_message_at + interval '1 minute'
from public.sessions s where s.id = 'de300000-0000-4000-8000-000000000051';

update public.sessions s set last_checkpoint_at = c.created_at, last_checkpoint_seq = c.through_seq
from public.session_checkpoints c
where c.id = 'de300000-0000-4000-8000-000000000e02' and s.id = c.session_id;

-- Three memories: the compaction's, a pinned convention of the user's, and one archived from an
-- earlier session (since deleted). New sessions load the relevant ones on their first message.
insert into public.session_memories (id, user_id, project_id, session_id, source, summary, key_decisions, code_references, tags,
  pinned, embedding_model, expires_at, about, created_at)
values
  ('de300000-0000-4000-8000-000000000f01', 'de300000-0000-4000-8000-000000000001', 'de300000-0000-4000-8000-0000000000a1',
   'de300000-0000-4000-8000-000000000051', 'compaction',
   'Uploads move to S3 multipart straight from the browser: 16 MiB parts, 4 in flight, 3 retries; the bucket tk-uploads-prod exposes ETag through CORS; incomplete uploads are aborted after a day.',
   '["16 MiB parts, 4 concurrent, 3 retries", "CORS must expose ETag", "Abort incomplete uploads after 1 day"]',
   '["lib/uploads/config.ts", "infra/s3-cors.json", "infra/s3-lifecycle.json"]',
   '{uploads,s3}', false, 'local-lexical-v1', now() + interval '30 days',
   to_tsvector('english', 'multipart upload S3 part size CORS ETag lifecycle abort presigned URL'),
   now() - interval '2 hours' + 12 * interval '6 minutes' + interval '1 minute'),
  ('de300000-0000-4000-8000-000000000f02', 'de300000-0000-4000-8000-000000000001', null, null, 'manual',
   'Team conventions: API routes validate their input with zod, answer errors as { error: { code, message } }, and look rows up by id and user_id together so that another user''s row is a 404.',
   '["zod at every route", "another user''s row is a 404"]', '[]',
   '{conventions}', true, 'local-lexical-v1', null, null, now() - interval '3 days'),
  ('de300000-0000-4000-8000-000000000f03', 'de300000-0000-4000-8000-000000000001', 'de300000-0000-4000-8000-0000000000a1', null, 'archive',
   'Earlier session on thumbnails: images are resized by a queue worker with sharp into 256 and 1024 px WebP variants stored next to the original under users/{userId}/{uuid}/.',
   '["WebP thumbnails at 256 and 1024 px", "resized by a queue worker, not in the request"]',
   '["workers/thumbnails.ts"]',
   '{uploads,images}', false, 'local-lexical-v1', now() + interval '30 days', null, now() - interval '2 days');
