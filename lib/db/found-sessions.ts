// The lookups that find a drop-in client's session when it names none (lib/turn/find-session.ts).
// Each is one index probe within the user's own sessions, and answers up to two candidates so
// the caller can tell one from an ambiguity.
import "server-only";
import type { Tx } from "./driver";

/** Sessions whose last answer to an API client held one of these tool calls. */
export async function sessionsByToolCall(tx: Tx, userId: string, toolUseIds: readonly string[]): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `select id from sessions where user_id = $1 and client_tool_ids && $2::text[] and client_view_seq = next_seq - 1 limit 2`,
    [userId, toolUseIds],
  );
  return rows.map((r) => r.id);
}

/** Sessions whose client's view, still current, is exactly this one. */
export async function sessionsByView(tx: Tx, userId: string, view: { len: number; digest: string }): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `select id from sessions
      where user_id = $1 and client_view_digest = $2 and client_view_len = $3 and client_view_seq = next_seq - 1 limit 2`,
    [userId, view.digest, view.len],
  );
  return rows.map((r) => r.id);
}

/**
 * Holds the client conversation id until the transaction ends, so two first requests of one
 * conversation arriving at once make one session.
 */
export async function lockConversation(tx: Tx, userId: string, conversation: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('threadkeeper.conversation:' || $1::text || ':' || $2, 0))`, [userId, conversation]);
}

export async function conversationSession(tx: Tx, userId: string, conversation: string): Promise<string | null> {
  const [row] = await tx.query<{ session_id: string }>(`select session_id from client_conversations where user_id = $1 and conversation = $2`, [
    userId,
    conversation,
  ]);
  return row?.session_id ?? null;
}

/** Maps a client conversation id to a session; an id already mapped keeps its session. */
export async function linkConversation(tx: Tx, userId: string, conversation: string, sessionId: string): Promise<void> {
  await tx.query(`insert into client_conversations (user_id, conversation, session_id) values ($1, $2, $3) on conflict do nothing`, [
    userId,
    conversation,
    sessionId,
  ]);
}
