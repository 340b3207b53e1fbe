// The stored messages resume_session (lib/mcp/server.ts) chooses from: the session's first
// current turn and enough of its latest messages to fill the budget, read in one transaction.
import "server-only";
import { withUser } from "@/lib/db";
import { listMessages, turnEdits, turnMessages, type MessageRow } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { firstCurrentTurn } from "@/lib/context/retries";
import type { ResumeMessage } from "@/lib/context/resume";

const PAGE = 100;
// Enough for any budget the prompt takes; a session of short messages stops here, not at its start.
const MAX_PAGES = 20;
// Characters read per token of budget before reading stops: more than any text needs (about 4 in
// English, 1 in Chinese), so the budget, not the read, decides what is shown.
const CHARS_PER_TOKEN_READ = 8;

function resumeMessage(r: MessageRow): ResumeMessage {
  return { seq: r.seq, turnSeq: r.turn_seq, role: r.role, text: r.text, status: r.status, supersedesTurn: r.supersedes_turn, restartsTurn: r.restarts_turn };
}

/** The first current turn (an edit may have replaced the first ones) and the latest messages, oldest first. 404 for another user's session. */
export async function resumeMessages(userId: string, sessionId: string, budget: number): Promise<{ first: ResumeMessage[]; recent: ResumeMessage[]; lastSeq: number }> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const firstTurn = firstCurrentTurn(await turnEdits(tx, sessionId));
    const first = firstTurn <= session.last_turn_seq ? await turnMessages(tx, sessionId, firstTurn) : [];
    const firstEnd = first.at(-1)?.seq ?? 0;
    const recent: MessageRow[] = [];
    let chars = 0;
    let before: number | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { rows, hasMore } = await listMessages(tx, userId, sessionId, before, PAGE);
      const later = rows.filter((r) => r.seq > firstEnd);
      recent.unshift(...later);
      chars += later.reduce((n, r) => n + r.text.length, 0);
      if (!hasMore || later.length < rows.length || chars >= budget * CHARS_PER_TOKEN_READ) break;
      before = rows[0].seq;
    }
    return { first: first.map(resumeMessage), recent: recent.map(resumeMessage), lastSeq: session.next_seq - 1 };
  });
}
