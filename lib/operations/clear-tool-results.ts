// Context editing as the first, cheapest stage before compaction: when the window is over the
// threshold, old tool results are cleared from what is sent (lib/context/clearing.ts) if that
// saves enough; compaction runs only if the window is still over it afterwards.
import "server-only";
import type { ContextStatusJson } from "@/lib/contract";
import { nextClearingMark } from "@/lib/context/clearing";
import { withUser } from "@/lib/db";
import { getSession, setClearedThrough } from "@/lib/db/sessions";
import { assembleWindow, contextStatus, loadContext, windowRows } from "./session-context";

export interface Cleared {
  /** Raw tokens the newly cleared results saved. */
  saved: number;
  status: ContextStatusJson;
}

/** Moves the session's clearing mark when that saves at least CLEAR_AT_LEAST tokens; null when it does not. */
export async function clearOldToolResults(userId: string, sessionId: string): Promise<Cleared | null> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId, true);
    const mark = nextClearingMark(await windowRows(tx, session), session.cleared_through_seq);
    if (!mark) return null;
    await setClearedThrough(tx, session.id, mark.through);
    session.cleared_through_seq = mark.through;
    const ctx = await loadContext(tx, userId, session);
    await assembleWindow(tx, ctx, ctx.calibration.factor);
    return { saved: mark.saves, status: contextStatus(ctx) };
  });
}
