// A session exported whole (lib/contract/exchange.ts), read in one transaction so the messages,
// compactions and checkpoints agree with one another.
import "server-only";
import { EXPORT_FORMAT, EXPORT_VERSION, type SessionExportJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { checkpointJson, listCheckpoints } from "@/lib/db/checkpoints";
import { listCompactions } from "@/lib/db/compactions";
import { messageJson, turnsMessages } from "@/lib/db/messages";
import { getSession, sessionJson } from "@/lib/db/sessions";
import { compactionJson } from "./compaction-log";
import { windowJson } from "./session-context";

export async function exportSession(userId: string, sessionId: string): Promise<SessionExportJson> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const window = await windowJson(tx, session);
    const pinned = new Set(window.pinned_turn_seqs);
    const [rows, compactions, checkpoints] = await Promise.all([
      turnsMessages(tx, sessionId, 0, session.last_turn_seq),
      listCompactions(tx, userId, sessionId),
      listCheckpoints(tx, userId, sessionId),
    ]);
    const latest = compactions.at(-1);
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: new Date().toISOString(),
      session: sessionJson(session),
      system_prompt: session.system_prompt,
      messages: rows.map((r) => messageJson(r, r.turn_seq >= window.cutoff_turn_seq || pinned.has(r.turn_seq))),
      compactions: compactions.map((c) => compactionJson(c, c === latest)),
      checkpoints: checkpoints.map(checkpointJson),
    };
  });
}
