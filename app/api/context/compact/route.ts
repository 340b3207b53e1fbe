import { getCaller } from "@/lib/auth";
import { json, parseBody, route } from "@/lib/api/http";
import { compactNow, compactSchema } from "@/lib/chat/compact";

export const dynamic = "force-dynamic";

export const POST = route(async (req) => {
  const body = await parseBody(req, compactSchema, 64 * 1024);
  const caller = await getCaller(req);
  return json(await compactNow(caller.userId, body), 201);
});
