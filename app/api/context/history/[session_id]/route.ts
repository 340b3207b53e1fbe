import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { compactionHistory } from "@/lib/operations/compaction-log";

export const dynamic = "force-dynamic";

export const GET = route(api.compactionHistory, async ({ params, caller }) => json({ compactions: await compactionHistory(caller.userId, params.session_id) }));
