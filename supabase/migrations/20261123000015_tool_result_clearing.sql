-- Context editing: old tool results are sent as a short placeholder (the stored messages never
-- change). Everything up to `cleared_through_seq` is cleared, except the newest few results and
-- protected messages; the mark only moves when that clears enough to be worth breaking the
-- prompt cache (lib/context/clearing.ts). A fork starts with nothing cleared.
alter table public.sessions
  add column cleared_through_seq integer not null default 0,
  -- Raw tokens the placeholders save in the current window: the token bar's "cleared" figure.
  add column cleared_tokens integer not null default 0;
