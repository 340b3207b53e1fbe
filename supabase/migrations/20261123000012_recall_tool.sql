-- The recall tool (lib/chat/recall.ts) is offered to Claude unless a user or a session turns it
-- off; null here means "the built-in default" (on), like every other user setting.
alter table public.user_settings add column recall_tool boolean;
