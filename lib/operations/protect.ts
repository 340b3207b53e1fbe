import "server-only";
import type { MessageJson } from "@/lib/contract";
import { audit } from "@/lib/audit/record";
import { withUser } from "@/lib/db";
import { messageJson, setProtected } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { refreshPinnedTokens, windowJson } from "./session-context";

/**
 * Marks a message protected (or not). A protected turn never slides out; protecting a turn
 * that already slid out brings it back into Claude's view as a pinned turn.
 */
export async function protectMessage(userId: string, messageId: string, value: boolean, sessionId?: string): Promise<MessageJson> {
  return withUser(userId, async (tx) => {
    const row = await setProtected(tx, userId, messageId, value, sessionId);
    const session = await getSession(tx, userId, row.session_id, true);
    await refreshPinnedTokens(tx, session);
    const window = await windowJson(tx, session);
    await audit(tx, userId, {
      action: value ? "message.protected" : "message.unprotected",
      target: { type: "message", id: messageId },
      metadata: { session_id: row.session_id, turn_seq: row.turn_seq },
    });
    return messageJson(row, row.turn_seq >= window.cutoff_turn_seq || window.pinned_turn_seqs.includes(row.turn_seq));
  });
}
