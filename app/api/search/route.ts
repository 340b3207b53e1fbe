import { json, parseQuery, route } from "@/lib/api/http";
import { historySearchQuery, searchHistoryFor } from "@/lib/search/api";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, historySearchQuery);
  return json({ hits: await searchHistoryFor(caller.userId, q) });
});
