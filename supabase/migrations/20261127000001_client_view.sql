-- A drop-in Messages API client resends its conversation with each request. The session keeps
-- a digest of the conversation as that client last saw it (its length, and the last message
-- it covers), so a resent history is recognised by one comparison instead of reading every
-- message; any other message appended since makes it stale (client_view_seq no longer last).
alter table public.sessions
  add column client_view_seq integer,
  add column client_view_len integer,
  add column client_view_digest text;
