-- Claude's extended thinking per user (and, through the session's overrides, per session):
-- auto (the model's default), on or off; null means the built-in default, auto.
alter table public.user_settings add column thinking text check (thinking in ('auto', 'on', 'off'));
