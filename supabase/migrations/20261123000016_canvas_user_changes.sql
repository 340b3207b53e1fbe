-- Every request of a session with a canvas asks for the user's own changes since Claude's last
-- reply (lib/chat/canvas.ts canvasForRequest); this keeps that lookup to the few user rows
-- instead of every canvas event of the session.
create index canvas_events_user_changes_idx on public.canvas_events (session_id, at_seq) where source = 'user';
