// Stopping a reply while Claude writes it. The turn runs on whichever instance took the
// send; a stop may reach another. So the request is written on the session row, and the turn
// checks for it every second while it streams (the flusher); on the same instance the
// registered controller aborts at once.
import { withUser, type Tx } from "@/lib/db";
import { getSession } from "@/lib/db/sessions";
import { conflict } from "@/lib/errors";

const running = new Map<string, AbortController>();

/** Makes a turn stoppable on this instance; returns the unregister function. */
export function registerTurn(sessionId: string, stop: AbortController): () => void {
  running.set(sessionId, stop);
  return () => {
    if (running.get(sessionId) === stop) running.delete(sessionId);
  };
}

/** Asks the session's reply in progress to stop; 409 when nothing is being answered. */
export async function requestStop(userId: string, sessionId: string): Promise<{ stopping: true }> {
  const asked = await withUser(userId, async (tx) => {
    await getSession(tx, userId, sessionId);
    const rows = await tx.query(
      `update sessions set stop_requested_at = now()
       where id = $1 and user_id = $2 and turn_lock_id is not null and turn_lock_until > now() returning id`,
      [sessionId, userId],
    );
    return rows.length > 0;
  });
  if (!asked) throw conflict("nothing_to_stop", "No reply is being written in this session");
  running.get(sessionId)?.abort();
  return { stopping: true };
}

/** A new turn starts with no stop pending (one asked for after the last reply ended is moot). */
export async function clearStop(tx: Tx, sessionId: string): Promise<void> {
  await tx.query(`update sessions set stop_requested_at = null where id = $1 and stop_requested_at is not null`, [sessionId]);
}

/** Whether a stop was asked for this session's turn (checked by the turn every second). */
export async function stopRequested(tx: Tx, sessionId: string): Promise<boolean> {
  const [row] = await tx.query<{ stop: boolean }>(`select stop_requested_at is not null as stop from sessions where id = $1`, [sessionId]);
  return row?.stop ?? false;
}
