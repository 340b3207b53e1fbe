import { json, parseBody, route } from "@/lib/api/http";
import { recover, recoverSchema } from "@/lib/operations/recovery";

export const dynamic = "force-dynamic";

export const POST = route(async (req, _, caller) => {
  const body = await parseBody(req, recoverSchema, 4 * 1024);
  return json(await recover(caller.userId, body));
});
