import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { accountInstructions, saveInstructions } from "@/lib/operations/preferences";

export const dynamic = "force-dynamic";

export const GET = route(api.getInstructions, async ({ caller }) => json(await accountInstructions(caller.userId)));

export const PUT = route(api.putInstructions, async ({ body, caller }) => json(await saveInstructions(caller.userId, body.instructions)));
