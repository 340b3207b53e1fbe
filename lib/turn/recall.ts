// The recall tool: Claude searches what was said before, verbatim, when the user refers to
// something no longer in view: turns of this session condensed into its summary or slid out,
// and the user's other sessions. Excerpts come back with their session and seq.
import "server-only";
import { z } from "zod";
import { formatRecall, RECALL_MAX_RESULTS, RECALL_SCOPES, type RecallScope } from "@/lib/context/recall";
import { withUser } from "@/lib/db";
import { embedHistoryQuery, searchHistory, type HistoryHit, type HistoryQuery } from "@/lib/search/history";

const recallInput = z.object({
  query: z.string().trim().min(1).max(500),
  scope: z.enum(RECALL_SCOPES).default("all"),
  limit: z.number().int().min(1).max(RECALL_MAX_RESULTS).default(5),
});

export interface RecallContext {
  userId: string;
  sessionId: string;
  /** Turns from here on are in Claude's view already: finding them again tells Claude nothing. */
  windowStartTurn: number;
}

/** What the search is asked for each scope; this session's hits are filtered to what Claude no longer sees. */
function queryFor(scope: RecallScope, ctx: RecallContext, q: string, limit: number): HistoryQuery {
  // Hits still in view are dropped afterwards, so ask for more than will be shown.
  const wanted = Math.min(50, limit * 3);
  if (scope === "this_session") return { q, sessionId: ctx.sessionId, limit: wanted };
  if (scope === "other_sessions") return { q, excludeSessionId: ctx.sessionId, limit };
  return { q, limit: wanted };
}

function inView(hit: HistoryHit, ctx: RecallContext): boolean {
  return hit.session_id === ctx.sessionId && hit.turn_seq !== null && hit.turn_seq >= ctx.windowStartTurn;
}

/** Runs a recall; throws a readable error for bad input, which the tool loop hands back to Claude. */
export async function recall(rawInput: unknown, ctx: RecallContext): Promise<string> {
  const parsed = recallInput.safeParse(rawInput);
  if (!parsed.success) {
    throw new Error(`Invalid input: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`);
  }
  const { query, scope, limit } = parsed.data;
  const embedded = await embedHistoryQuery(query);
  const hits = await withUser(ctx.userId, (tx) => searchHistory(tx, ctx.userId, queryFor(scope, ctx, query, limit), embedded));
  const shown = hits.filter((h) => !inView(h, ctx)).slice(0, limit);
  return formatRecall(query, shown, ctx.sessionId);
}
