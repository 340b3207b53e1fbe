// The naive way, for comparison: recount the whole history from the stored text on every
// request, as a design without stored per-message counts and session counters would.
import type { ContextStatusJson } from "@/lib/contract";
import { contextStatus, fixedRawTokens, loadContext, slideLimits } from "@/lib/operations/session-context";
import { groupTurns, type Turn } from "@/lib/context/turns";
import { withUser } from "@/lib/db";
import { tailMessages } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { calibrate } from "@/lib/tokens/calibration";
import { estimateMessageTokens, estimateTextTokens } from "@/lib/tokens/tokenizer";

/** Status by loading every message's text and re-encoding it all. */
export async function naiveStatus(userId: string, sessionId: string): Promise<{ status: ContextStatusJson; rawTokens: number }> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const rows = await tx.query<{ text: string }>(
      `select text from messages where session_id = $1 and user_id = $2 order by seq`,
      [sessionId, userId],
    );
    let raw = 0;
    for (const r of rows) raw += estimateTextTokens(r.text);
    // Same status computation as ours, but fed with the recount instead of the stored counters.
    const ctx = await loadContext(tx, userId, { ...session, window_start_turn: 1, tail_tokens: raw, pinned_tokens: 0 });
    return { status: contextStatus(ctx), rawTokens: raw };
  });
}

export interface NaiveWindow {
  cutoffTurnSeq: number;
  keptMessages: number;
  rawTokens: number;
}

/**
 * Window by loading all messages, re-encoding each, grouping turns and taking whole turns
 * from the newest backwards until capacity, or until the slide target once anything must slide
 * (the first turn is always kept).
 */
export async function naiveWindow(userId: string, sessionId: string): Promise<NaiveWindow> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const ctx = await loadContext(tx, userId, session);
    const factor = ctx.calibration.factor;
    const limits = slideLimits(ctx);
    const rows = await tailMessages(tx, sessionId, 1);
    const turns = groupTurns(
      rows.map((m) => ({ ...m, tokenCount: estimateMessageTokens(m.role, m.content) })),
    );
    const first = turns.length > 0 && turns[0].protected ? [turns[0]] : [];
    let raw = fixedRawTokens(ctx) + first.reduce((n, t) => n + t.tokens, 0);
    const everything = raw + turns.slice(first.length).reduce((n, t) => n + t.tokens, 0);
    const capacity = calibrate(everything, factor) > limits.capacity ? limits.slideTarget : limits.capacity;
    const newestFirst: Turn[] = [];
    for (let i = turns.length - 1; i >= first.length; i--) {
      const t = turns[i];
      if (newestFirst.length > 0 && calibrate(raw + t.tokens, factor) > capacity) break;
      raw += t.tokens;
      newestFirst.push(t);
    }
    const tailKept = [...newestFirst].reverse();
    const kept = [...first, ...tailKept];
    // Nothing slid out: the window still starts at the first turn.
    const slid = turns.length > kept.length;
    const cutoff = !slid ? (turns[0]?.turnSeq ?? 1) : tailKept[0].turnSeq;
    return { cutoffTurnSeq: cutoff, keptMessages: kept.reduce((n, t) => n + t.messages.length, 0), rawTokens: raw };
  });
}

/** Counting a new message by recounting the whole history plus it (history texts already in memory). */
export function naiveCountNewMessage(history: readonly string[], text: string): number {
  let total = 0;
  for (const h of history) total += estimateTextTokens(h);
  return total + estimateMessageTokens("user", [{ type: "text", text }]);
}
