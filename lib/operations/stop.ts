// Stopping a reply while Claude writes it. The turn runs on whichever instance took the
// send; a stop may reach another. So the request is written on the session row, and the turn
// checks for it every second while it streams (the flusher); on the same instance the
// registered controller aborts at once.
import "server-only";
import { withUser } from "@/lib/db";
import { getSession, requestStopOf } from "@/lib/db/sessions";
import { conflict } from "@/lib/errors";

// On globalThis: the shutdown handler (instrumentation.ts) is in another Next.js bundle layer.
const running = ((globalThis as { __threadkeeperTurns?: Map<string, AbortController> }).__threadkeeperTurns ??= new Map());

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
    return requestStopOf(tx, userId, sessionId);
  });
  if (!asked) throw conflict("nothing_to_stop", "No reply is being written in this session");
  running.get(sessionId)?.abort();
  return { stopping: true };
}

/** Shutdown: stops every turn running on this instance, as a stop would; answers how many. */
export function abortAllTurns(): number {
  for (const stop of running.values()) stop.abort();
  return running.size;
}
