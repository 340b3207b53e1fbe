-- What a compaction did to the prompt cache (warm or cold, what the next request writes
-- again, the one-time cost and the turns until the shorter prefix repays it).
alter table public.compaction_logs add column cache_break jsonb;
