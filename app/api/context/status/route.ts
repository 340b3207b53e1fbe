import { z } from "zod";
import { getCaller } from "@/lib/auth";
import { json, parseQuery, route, uuid } from "@/lib/api/http";
import { getStatus } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

export const GET = route(async (req) => {
  const q = parseQuery(req, z.object({ session_id: uuid }).strict());
  const caller = await getCaller(req);
  return json(await getStatus(caller.userId, q.session_id));
});
