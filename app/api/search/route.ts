import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { searchHistoryFor } from "@/lib/search/api";

export const dynamic = "force-dynamic";

export const GET = route(api.searchHistory, async ({ query, caller }) => json({ hits: await searchHistoryFor(caller.userId, query) }));
