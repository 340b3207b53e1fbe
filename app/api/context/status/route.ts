import { z } from "zod";
import { json, parseQuery, route, uuid } from "@/lib/api/http";
import { getStatus } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req, _, caller) => {
  const q = parseQuery(req, z.object({ session_id: uuid }).strict());
  return json(await getStatus(caller.userId, q.session_id));
});
