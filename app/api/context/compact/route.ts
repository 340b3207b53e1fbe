import { json, parseBody, route } from "@/lib/api/http";
import { compactNow, compactSchema } from "@/lib/operations/compact";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, compactSchema, 64 * 1024);
  return json(await compactNow(caller.userId, body), 201);
});
