// GET /api/search: the request schema and the one call the route makes.
import "server-only";
import { z } from "zod";
import { withUser } from "@/lib/db";
import { getProject } from "@/lib/db/projects";
import { getSession } from "@/lib/db/sessions";
import { embedHistoryQuery, searchHistory, type HistoryHit } from "./history";
import { historySearchQuery } from "@/lib/contract/requests";

/**
 * The user's messages matching the query. A session or project that is not the caller's is
 * 404, exactly like an unknown id. The query is embedded before the transaction opens.
 */
export async function searchHistoryFor(userId: string, q: z.infer<typeof historySearchQuery>): Promise<HistoryHit[]> {
  const embedded = await embedHistoryQuery(q.q);
  return withUser(userId, async (tx) => {
    if (q.session_id) await getSession(tx, userId, q.session_id);
    if (q.project_id) await getProject(tx, userId, q.project_id);
    return searchHistory(
      tx,
      userId,
      { q: q.q, sessionId: q.session_id, projectId: q.project_id, from: q.from, to: q.to, limit: q.limit, includeThinking: q.include_thinking },
      embedded,
    );
  });
}
