import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { protectMessage } from "@/lib/operations/protect";

export const dynamic = "force-dynamic";

export const POST = route(api.protectMessage, async ({ params, query, caller }) =>
  json({ message: await protectMessage(caller.userId, params.message_id, true, query.session_id) }),
);

export const DELETE = route(api.unprotectMessage, async ({ params, query, caller }) =>
  json({ message: await protectMessage(caller.userId, params.message_id, false, query.session_id) }),
);
