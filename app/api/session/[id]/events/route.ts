import { route } from "@/lib/api/http";
import { liveCursor, liveResponse } from "@/lib/api/live";
import { api } from "@/lib/contract/endpoints";

export const dynamic = "force-dynamic";

export const GET = route(api.sessionEvents, async ({ req, params, query, caller }) =>
  liveResponse(caller.userId, params.id, liveCursor(req, query.after), req.signal),
);
