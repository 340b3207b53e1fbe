import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { recover } from "@/lib/operations/recovery";

export const dynamic = "force-dynamic";

export const POST = route(api.recoverAfterCrash, async ({ body, caller }) => json(await recover(caller.userId, body)));
