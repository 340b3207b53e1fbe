import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { enqueueEvent } from "@/lib/webhooks/events";
import type { ContextStatusJson, MessageJson, RecoveryJson, SessionJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { checkpointJson, latestCheckpoint } from "@/lib/db/checkpoints";
import { listMessages, messageJson } from "@/lib/db/messages";
import { crashedSession, recentSessionSummaries } from "@/lib/db/session-picker";
import { dismissRecovery, getSession, sessionJson } from "@/lib/db/sessions";
import { contextStatus, loadContext } from "./session-context";
import { recoverSchema } from "@/lib/contract/requests";

/**
 * After a crash: the session whose reply was cut off, that reply as it was saved (flushed
 * every second while streaming), and the latest checkpoint to resume from. Dismissing
 * stops asking about that crash.
 */
export async function recover(userId: string, input: z.infer<typeof recoverSchema>): Promise<RecoveryJson> {
  return withUser(userId, async (tx) => {
    if (input.dismiss_session_id) {
      await getSession(tx, userId, input.dismiss_session_id);
      await dismissRecovery(tx, userId, input.dismiss_session_id);
    }
    const crashed = await crashedSession(tx, userId);
    if (!crashed) return { needed: false, session: null, interrupted_message: null, checkpoint: null };
    const [summary] = await recentSessionSummaries(tx, userId, { sessionId: crashed.sessionId, limit: 1 });
    const { rows } = await listMessages(tx, userId, crashed.sessionId, undefined, 1);
    const cp = await latestCheckpoint(tx, userId, crashed.sessionId);
    return {
      needed: true,
      session: summary ?? null,
      interrupted_message: rows[0] ? messageJson(rows[0], true) : null,
      checkpoint: cp ? checkpointJson(cp) : null,
    };
  });
}

/**
 * Opens a session where it left off: its state, context status and, when its last reply was
 * cut off, that reply (the client answers it again with `retry: true`, losing nothing).
 */
export async function resumeSession(
  userId: string,
  id: string,
): Promise<{ session: SessionJson; status: ContextStatusJson; interrupted_message: MessageJson | null }> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, id);
    await dismissRecovery(tx, userId, id);
    const { rows } = await listMessages(tx, userId, id, undefined, 1);
    const last = rows[0];
    const interrupted = last && last.role === "assistant" && last.status !== "complete";
    await audit(tx, userId, { action: "session.resumed", target: { type: "session", id }, metadata: { interrupted: !!interrupted } });
    if (interrupted) await enqueueEvent(tx, userId, "session.recovered", { session_id: id, interrupted_message_id: last.id });
    return {
      session: sessionJson(session),
      status: contextStatus(await loadContext(tx, userId, session)),
      interrupted_message: interrupted ? messageJson(last, true) : null,
    };
  });
}
