// Search over everything said in every session (GET /api/search).
import type { HistoryHitJson } from "@/lib/contract";
import { json } from "@/lib/client/api/http";

/** Hits shown for one query. */
const SEARCH_LIMIT = 20;

export async function fetchHistoryHits(q: string, signal?: AbortSignal): Promise<HistoryHitJson[]> {
  const params = new URLSearchParams({ q, limit: String(SEARCH_LIMIT) });
  return (await json<{ hits: HistoryHitJson[] }>(`/api/search?${params}`, { signal })).hits;
}
