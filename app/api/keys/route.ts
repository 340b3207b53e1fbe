import { json, parseBody, route } from "@/lib/api/http";
import { createKey, createKeySchema, listKeys } from "@/lib/keys";

export const dynamic = "force-dynamic";

export const GET = route(
  async (req, _, caller) => {
    return json({ keys: await listKeys(caller.userId) });
  },
  { scope: "admin" },
);

export const POST = route(
  async (req, _, caller) => {
    const body = await parseBody(req, createKeySchema, 16 * 1024);
    // The secret is in this answer only: keep it out of every cache.
    return json(await createKey(caller.userId, body), 201, { "Cache-Control": "no-store" });
  },
  { scope: "admin" },
);
