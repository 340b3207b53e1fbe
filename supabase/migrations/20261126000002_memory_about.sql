-- A session's memory is found by what was discussed in it, not only by its summary's words:
-- `about` holds the words of the turns it stands for (redacted, as a tsvector: the words, not
-- the text), and memory search matches and ranks them with the summary's.
alter table public.session_memories add column about tsvector;
alter table public.session_memories drop column search;
alter table public.session_memories add column search tsvector generated always as (
  to_tsvector('english', left(summary, 100000) || ' ' || key_decisions::text || ' ' || code_references::text) || coalesce(about, ''::tsvector)
) stored;
create index session_memories_search_idx on public.session_memories using gin (search);
