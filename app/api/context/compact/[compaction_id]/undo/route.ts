import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { undoCompaction } from "@/lib/operations/compaction-log";

export const dynamic = "force-dynamic";

export const POST = route(api.undoCompaction, async ({ params, caller }) => json(await undoCompaction(caller.userId, params.compaction_id)));
