import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { compactNow } from "@/lib/operations/compact";

export const dynamic = "force-dynamic";

export const POST = route(api.compact, async ({ body, caller }) => json(await compactNow(caller.userId, body), 201));
